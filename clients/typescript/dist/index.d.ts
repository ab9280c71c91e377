export { Horizon, JobPages, apiDate, toRequest } from './client.ts';
export type { AnomaliesInput, AnomaliesRequest, AnomalyJob, AnomalyJobAccepted, AnomalyJobPage, EmbeddingJob, EmbeddingJobAccepted, EmbeddingJobPage, EmbeddingsRequest, EmbeddingsResponse, ApiKey, CallOptions, CreatedApiKey, DateLike, FineTuningInput, FineTuningJob, FineTuningJobPage, FineTuningRequest, ModelInfo, ForecastInput, ForecastRequest, ForecastResponse, Freq, HorizonOptions, InputSeries, Job, JobAccepted, JobPage, JobStatus, ModelList, RetryOptions, WaitOptions, Warmup, StoredSeries, StoredSeriesPut, StoredSeriesPage, ObservationsAppended, Observations, SeriesAccuracy, ModelAccuracy, StoredForecastInput, } from './client.ts';
export { HorizonError, type FieldError } from './errors.ts';
export { hierarchyTree, type HierarchyInfo, type HierarchyNode, type HierarchyTree, type HierarchyTreeNode } from './hierarchy.ts';
export type { components, paths } from './openapi.ts';
