// OpenAPI examples of the /nixtla operations: request bodies exactly as nixtla==0.9.0 sends them (its
// columnar payloads, TimeGPT settings at their defaults), sent to a real server by test/openapi.test.ts,
// and answers of the real server (rounded).
import type { OperationExamples } from '../operation-examples.ts';

const y = [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118, 115, 126, 141, 135, 125, 149, 170, 170, 158, 133, 114, 140];
const defaults = { clean_ex_first: true, finetune_steps: 0, finetune_depth: 1, finetune_loss: 'default', finetuned_model_id: null, multivariate: false };

// NixtlaClient.forecast(df, h=3, model='seasonal-naive', level=[80]) of two years of airline passengers
const forecast = {
  series: { y, sizes: [24], X: null, X_future: null, start_datetime: ['1949-01-01'] }, model: 'seasonal-naive', h: 3, freq: 'MS', level: [80],
  feature_contributions: false, ...defaults,
};
// NixtlaClient.cross_validation(df, h=3, n_windows=2, model='seasonal-naive', level=[80])
const crossValidation = {
  series: { y, sizes: [24], X: null, start_datetime: ['1949-01-01'] }, model: 'seasonal-naive', h: 3, n_windows: 2, step_size: 3, freq: 'MS', hist_exog: null,
  level: [80], refit: true, ...defaults,
};
// NixtlaClient.detect_anomalies(df, model='seasonal-naive') of three years with a spike in June 1951
const anomalies = {
  series: { y: [...y, 145, 150, 178, 163, 172, 260, 199, 199, 184, 162, 146, 166], sizes: [36], X: null, start_datetime: ['1949-01-01'] },
  model: 'seasonal-naive', freq: 'MS', finetuned_model_id: null, clean_ex_first: true, level: 99, multivariate: false,
};

// NixtlaClient.finetune(df, finetune_steps=10) of three years: the TimeGPT name fine-tunes chronos-2 (a LoRA adapter at depth 1)
const finetune = {
  series: { y: anomalies.series.y, sizes: [36], start_datetime: ['1949-01-01'] }, model: 'timegpt-2.1', freq: 'MS',
  finetune_steps: 10, finetune_depth: 1, finetune_loss: 'default', output_model_id: null, finetuned_model_id: null,
};

// NixtlaClient.detect_anomalies_online(df, h=3, detection_size=6, model='seasonal-naive', threshold_method='univariate'),
// and jobs.detect_anomalies(...) with the same arguments: the last 6 of three years scored
const onlineAnomalies = {
  series: { y: anomalies.series.y, sizes: [36], X: null, start_datetime: ['1949-01-01'] }, h: 3, detection_size: 6, threshold_method: 'univariate',
  model: 'seasonal-naive', freq: 'MS', clean_ex_first: true, level: 99, step_size: null, finetune_steps: 0, finetune_loss: 'default', finetune_depth: 1,
  finetuned_model_id: null, refit: false, hist_exog: null, multivariate: false,
};
// NixtlaClient.simulate(df, h=3, n_paths=3, seed=7, model='seasonal-naive') of two years (the SDK sends no start dates here)
const simulate = {
  series: { y, sizes: [24], X: null, X_future: null }, model: 'seasonal-naive', h: 3, freq: 'MS', n_paths: 3, quantiles: null, seed: 7,
  finetuned_model_id: null, clean_ex_first: true, multivariate: false,
};

const job = { job_id: '0d904a1c-6f21-43b7-8e98-bb9c27546a27', status: 'pending' };

export const NIXTLA_EXAMPLES: Record<string, OperationExamples> = {
  'POST /nixtla/v2/forecast': {
    request: { monthly: { summary: 'forecast(df, h=3, model="seasonal-naive", level=[80]) of one monthly series', value: forecast } },
    response: { 200: {
      mean: [115, 126, 141], intervals: { 'lo-80': [96.013, 107.013, 122.013], 'hi-80': [133.987, 144.987, 159.987] }, weights_x: null,
      feature_contributions: null, model: 'seasonal-naive', warnings: [],
    } },
  },
  'POST /nixtla/v2/cross_validation': {
    request: { monthly: { summary: 'cross_validation(df, h=3, n_windows=2, model="seasonal-naive", level=[80])', value: crossValidation } },
    response: { 200: {
      idxs: [18, 19, 20, 21, 22, 23], sizes: [6], mean: [148, 148, 136, 119, 104, 118],
      intervals: { 'lo-80': [137.51, 137.51, 125.51, 100.606, 85.606, 99.606], 'hi-80': [158.49, 158.49, 146.49, 137.394, 122.394, 136.394] }, weights_x: null,
      feature_contributions: null, model: 'seasonal-naive', warnings: [],
    } },
  },
  'POST /nixtla/v2/anomaly_detection': {
    request: { spike: { summary: 'detect_anomalies(df, model="seasonal-naive") with a spike in June 1951', value: anomalies } },
    response: { 200: { sizes: [12], mean: [115, 126, 141, 135, 125, 149, 170, 170, 158, 133, 114, 140], intervals: {
      'lo-99': [76.838, 83.53, 96.866, 85.771, 74.038, 91.498, 82.453, 83.082, 71.652, 47.475, 28.937, 55.05],
      'hi-99': [153.162, 168.47, 185.134, 184.229, 175.962, 206.502, 257.547, 256.918, 244.348, 218.525, 199.063, 224.95],
    }, anomaly: [false, false, false, false, false, true, false, false, false, false, false, false], weights_x: null, model: 'seasonal-naive', warnings: [] } },
  },
  'POST /nixtla/v2/online_anomaly_detection': {
    request: { univariate: { summary: 'detect_anomalies_online(df, h=3, detection_size=6, model="seasonal-naive", threshold_method="univariate")',
      value: onlineAnomalies } },
    response: { 200: {
      idxs: [30, 31, 32, 33, 34, 35], sizes: [6], mean: [170, 170, 158, 133, 114, 140], anomaly: [false, false, false, false, false, false],
      anomaly_score: [0.886, 0.886, 0.795, 0.886, 0.978, 0.795],
      intervals: { 'lo-99': [85.723, 85.723, 73.723, 48.723, 29.723, 55.723], 'hi-99': [254.277, 254.277, 242.277, 217.277, 198.277, 224.277] },
      weights_x: null, model: 'seasonal-naive', warnings: [],
    } },
  },
  'POST /nixtla/v2/anomaly_detection/async': {
    request: { univariate: { summary: 'jobs.detect_anomalies(df, h=3, detection_size=6, model="seasonal-naive")', value: onlineAnomalies } },
    response: { 202: job },
  },
  'POST /nixtla/v2/simulate': {
    request: { monthly: { summary: 'simulate(df, h=3, n_paths=3, seed=7, model="seasonal-naive"), answered synchronously', value: simulate } },
    response: { 200: {
      samples: [100.607, 127.882, 140.633, 112.491, 104.981, 137.02, 117.847, 134.091, 130.997], sizes: [3], n_paths: 3, h: 3, coupled: false,
      model: 'seasonal-naive', warnings: [],
    } },
  },
  'POST /nixtla/v2/simulate/async': {
    request: { monthly: { summary: 'simulate(df, h=3, n_paths=3, seed=7, model="seasonal-naive"): the SDK submits it as a job', value: simulate } },
    response: { 202: job },
  },
  'POST /nixtla/v2/forecast/async': {
    request: { monthly: { summary: 'jobs.forecast(df, h=3, model="seasonal-naive", level=[80])', value: forecast } },
    response: { 202: job },
  },
  'POST /nixtla/v2/cross_validation/async': {
    request: { monthly: { summary: 'jobs.cross_validation(df, h=3, n_windows=2, model="seasonal-naive")', value: crossValidation } },
    response: { 202: job },
  },
  'POST /nixtla/v2/finetune': {
    request: { monthly: { summary: 'finetune(df, finetune_steps=10): a fine-tuning job of chronos-2, waited for', value: finetune } },
    response: { 200: { finetuned_model_id: 'ft-3f6c2a9e0d41b7c85e19a2f4' } },
  },
  'POST /nixtla/v2/finetune/async': {
    request: { monthly: { summary: 'jobs.finetune(df, finetune_steps=10)', value: finetune } },
    response: { 202: job },
  },
  'GET /nixtla/v2/finetuned_models': {
    response: { 200: { finetuned_models: [{
      id: 'ft-3f6c2a9e0d41b7c85e19a2f4', created_at: '2026-01-06T10:12:03.000Z', created_by: '5b0e6c3e-9d0f-4f59-a2a8-0c8e3b8f1d27', base_model_id: 'chronos-2',
      steps: 10, depth: 1, loss: 'default', model: 'chronos-2', freq: 'MS', horizon_model_id: 'ft-3f6c2a9e0d41b7c85e19a2f4', base_size: 'small',
    }] } },
  },
  'GET /nixtla/v2/forecast/jobs/{id}': { response: { 200: { job_id: job.job_id, status: 'succeeded', result: {
    mean: [115, 126, 141], intervals: { 'lo-80': [96.013, 107.013, 122.013], 'hi-80': [133.987, 144.987, 159.987] }, weights_x: null,
    feature_contributions: null, model: 'seasonal-naive', warnings: [],
  }, error: null } } },
  'GET /nixtla/model_params': { response: { 200: { detail: { input_size: 100000, horizon: 10000 }, model: 'seasonal-naive' } } },
  'GET /nixtla/validate_api_key': { response: { 200: { detail: 'API key is valid' } } },
  'GET /nixtla/usage': { response: {
    200: { daily: { limit: 200, used: 3, remaining: 197, reset: 1767744000 }, weekly: { limit: 1000, used: 12, remaining: 988, reset: 1768176000 } },
  } },
};
