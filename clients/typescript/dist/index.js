// @horizon-forecast/client: a typed client for the Horizon forecasting API. Zero runtime dependencies.
export { Horizon, JobPages, apiDate, toRequest } from "./client.js";
export { HorizonError } from "./errors.js";
export { hierarchyTree } from "./hierarchy.js";
