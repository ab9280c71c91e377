// Every operation of the API, one file each, named after it.
import type { Route } from '../app-types.ts';
import { forecastCreate } from './forecast.create.ts';
import { forecastJobsCreate } from './forecast-jobs.create.ts';
import { forecastJobsGet } from './forecast-jobs.get.ts';
import { forecastJobsList } from './forecast-jobs.list.ts';
import { forecastJobsCancel } from './forecast-jobs.cancel.ts';
import { modelsList } from './models.list.ts';
import { warmupGet } from './warmup.get.ts';
import { statusGet } from './status.get.ts';
import { apiKeysCreate } from './api-keys.create.ts';
import { apiKeysList } from './api-keys.list.ts';
import { apiKeysRevoke } from './api-keys.revoke.ts';
import { playgroundGet } from './playground.get.ts';
import { playgroundAssetsGet } from './playground.assets.get.ts';
import { faviconGet } from './favicon.get.ts';
import { metricsGet } from './metrics.get.ts';
import { adminAccountsList } from './admin-accounts.list.ts';
import { adminAccountsUpdate } from './admin-accounts.update.ts';
import { adminAccountsCreate } from './admin-accounts.create.ts';
import { adminKeysList } from './admin-keys.list.ts';
import { adminKeysCreate } from './admin-keys.create.ts';
import { adminKeysRevoke } from './admin-keys.revoke.ts';
import { crossValidationCreate } from './cross-validation.create.ts';
import { anomaliesCreate } from './anomalies.create.ts';
import { anomalyJobsCreate } from './anomaly-jobs.create.ts';
import { anomalyJobsGet } from './anomaly-jobs.get.ts';
import { anomalyJobsList } from './anomaly-jobs.list.ts';
import { anomalyJobsCancel } from './anomaly-jobs.cancel.ts';
import { embeddingsCreate } from './embeddings.create.ts';
import { embeddingJobsCreate } from './embedding-jobs.create.ts';
import { embeddingJobsGet } from './embedding-jobs.get.ts';
import { embeddingJobsList } from './embedding-jobs.list.ts';
import { embeddingJobsCancel } from './embedding-jobs.cancel.ts';
import { crossValidationJobsCreate } from './cross-validation-jobs.create.ts';
import { crossValidationJobsGet } from './cross-validation-jobs.get.ts';
import { crossValidationJobsList } from './cross-validation-jobs.list.ts';
import { crossValidationJobsCancel } from './cross-validation-jobs.cancel.ts';
import { mcpRoutes } from './mcp.ts';
import { fineTuningJobsCreate } from './fine-tuning-jobs.create.ts';
import { fineTuningJobsGet } from './fine-tuning-jobs.get.ts';
import { fineTuningJobsList } from './fine-tuning-jobs.list.ts';
import { fineTuningJobsCancel } from './fine-tuning-jobs.cancel.ts';
import { modelsDelete } from './models.delete.ts';
import { modelsGet } from './models.get.ts';
import { seriesPut } from './series.put.ts';
import { seriesGet } from './series.get.ts';
import { seriesList } from './series.list.ts';
import { seriesDelete } from './series.delete.ts';
import { seriesObservationsAppend } from './series-observations.append.ts';
import { seriesAccuracyGet } from './series-accuracy.get.ts';
import { accuracyGet } from './accuracy.get.ts';
import { seriesObservationsAppendMany } from './series-observations.append-many.ts';

export const routes: Route[] = [
  forecastCreate, forecastJobsCreate, forecastJobsGet, forecastJobsList, forecastJobsCancel,
  modelsList, warmupGet, statusGet, apiKeysCreate, apiKeysList, apiKeysRevoke,
  playgroundGet, playgroundAssetsGet, faviconGet, metricsGet, adminAccountsList, adminAccountsUpdate, adminAccountsCreate, adminKeysList, adminKeysCreate,
  adminKeysRevoke, crossValidationCreate,
  anomaliesCreate, anomalyJobsCreate, anomalyJobsGet, anomalyJobsList, anomalyJobsCancel,
  embeddingsCreate, embeddingJobsCreate, embeddingJobsGet, embeddingJobsList, embeddingJobsCancel,
  crossValidationJobsCreate, crossValidationJobsGet, crossValidationJobsList, crossValidationJobsCancel,
  mcpRoutes,
  fineTuningJobsCreate, fineTuningJobsGet, fineTuningJobsList, fineTuningJobsCancel, modelsDelete, modelsGet,
  seriesPut, seriesGet, seriesList, seriesDelete, seriesObservationsAppend, seriesAccuracyGet, accuracyGet, seriesObservationsAppendMany,
];
