// Request and response examples of the OpenAPI document, keyed by operation. They are real: the
// request examples are sent to a real server by test/openapi.test.ts (and by Schemathesis' examples
// phase) and must answer 2xx; each response example has the shape of the real answer. Only models of
// the core runtime group (installed by every setup, no weights) are used, so they work everywhere.

import { NIXTLA_EXAMPLES } from './nixtla/examples.ts';
import { KSERVE_EXAMPLES } from './kserve/examples.ts';
import type { OperationExamples } from './operation-examples.ts';

const monthly = {
  series: [{
    target: [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118],
    index: [
      '1949-01-01', '1949-02-01', '1949-03-01', '1949-04-01', '1949-05-01', '1949-06-01', '1949-07-01', '1949-08-01', '1949-09-01', '1949-10-01', '1949-11-01',
      '1949-12-01',
    ],
  }],
  horizon: 3,
  freq: 'MS',
  model: 'naive',
};

// as pandas writes an hourly Europe/Paris index (str(pd.Timestamp)): a space and a UTC offset
const hourlyPandas = {
  series: [{
    target: [41.2, 39.8, 38.5, null, 37.9, 40.3, 45.1, 52.6],
    index: [
      '2024-03-01 00:00:00+01:00', '2024-03-01 01:00:00+01:00', '2024-03-01 02:00:00+01:00', '2024-03-01 03:00:00+01:00', '2024-03-01 04:00:00+01:00',
      '2024-03-01 05:00:00+01:00', '2024-03-01 06:00:00+01:00', '2024-03-01 07:00:00+01:00',
    ],
  }],
  horizon: 2,
  freq: 'H',
  model: 'naive',
  quantiles: [0.1, 0.5, 0.9],
};

// two years of the monthly airline passengers: 2 windows of 3 months, naive vs seasonal-naive
const crossValidation = {
  series: [{
    target: [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118, 115, 126, 141, 135, 125, 149, 170, 170, 158, 133, 114, 140],
    index: [...monthly.series[0].index, ...monthly.series[0].index.map((d) => d.replace('1949', '1950'))],
  }],
  horizon: 3,
  freq: 'MS',
  quantiles: [0.1, 0.5, 0.9],
  n_windows: 2,
  models: ['naive', { model: 'seasonal-naive' }],
};

// three years of airline passengers with a spike in 1951-06 (178 → 260): seasonal-naive, mode in-sample (its
// default: one fit, the value a season back ± z·σ of the whole history), scored from 1951-01 (min_history of MS: 24)
const anomalies = {
  series: [{
    target: [...crossValidation.series[0].target, 145, 150, 178, 163, 172, 260, 199, 199, 184, 162, 146, 166],
    index: [...crossValidation.series[0].index, ...monthly.series[0].index.map((d) => d.replace('1949', '1951'))],
  }],
  freq: 'MS',
  model: 'seasonal-naive',
  level: 99,
};

const backtest = { ...monthly, model: 'auto-ets', evaluation: { holdout: 3 } };

// model "auto": naive vs seasonal-naive cross-validated on the two years, one model per series
const { models: _models, n_windows: _windows, ...cvBody } = crossValidation;
const auto = { ...cvBody, model: 'auto', auto_candidates: ['naive', 'seasonal-naive'], auto_scope: 'series' };
// prism over the members the request names (any model the account may forecast with, its private models too)
const prism = { ...cvBody, model: 'prism', prism_members: ['naive', 'seasonal-naive'] };

// three stores in two regions (the airline passengers and two series of its scale), auto-ets: every node forecast, then
// reconciled (docs/api.md#hierarchies)
const storesHierarchy = {
  labels: [{ region: 'north', store: 'n1' }, { region: 'north', store: 'n2' }, { region: 'south', store: 's1' }],
  levels: [['region'], ['region', 'store']],
};
const stores = {
  series: [
    crossValidation.series[0],
    { target: [56, 61, 70, 66, 64, 68, 76, 78, 69, 62, 52, 61, 62, 64, 74, 68, 64, 78, 86, 88, 79, 68, 61, 71], index: crossValidation.series[0].index },
    {
      target: [90, 97, 111, 104, 100, 106, 119, 115, 108, 97, 80, 94, 87, 98, 106, 104, 98, 113, 132, 128, 120, 96, 83, 106],
      index: crossValidation.series[0].index,
    },
  ],
  horizon: 3, freq: 'MS', model: 'auto-ets', quantiles: [0.1, 0.5, 0.9], hierarchy: storesHierarchy, reconcile: 'mint_shrink',
};
// the same stores cross-validated with seasonal-naive (one window): the window reconciled across the nodes (a method
// other than the default wls_var, chosen by name)
const storesCrossValidation = {
  series: stores.series, horizon: 3, freq: 'MS', quantiles: [0.1, 0.5, 0.9], n_windows: 1, models: ['seasonal-naive'], hierarchy: storesHierarchy,
  reconcile: 'mint_shrink',
};

// two daily series of four weeks, each reconciled with its weekly sums (a temporal hierarchy; docs/api.md#hierarchies)
const temporalDaily = {
  series: [
    {
      target: [98, 120, 119, 108, 86, 81, 96, 107, 128, 126, 117, 98, 73, 98, 111, 127, 114, 103, 93, 86, 97, 110, 131, 126, 123, 107, 88, 112],
      index: Array.from({ length: 28 }, (_, d) => `2024-01-${String(d + 1).padStart(2, '0')}`),
    },
    {
      target: [75, 65, 57, 46, 57, 57, 64, 61, 59, 54, 59, 44, 53, 67, 75, 66, 47, 40, 56, 56, 61, 73, 69, 57, 53, 56, 68, 69],
      index: Array.from({ length: 28 }, (_, d) => `2024-01-${String(d + 1).padStart(2, '0')}`),
    },
  ],
  horizon: 7, freq: 'D', model: 'auto-ets', quantiles: [0.1, 0.5, 0.9], hierarchy: { temporal: ['W'] },
};

const forecastResponse = {
  status: 'completed',
  model: 'naive',
  model_size: 'default',
  series: [[{
    prediction: { mean: [118, 118, 118], '0.1': [95.6, 86.3, 79.2], '0.5': [118, 118, 118], '0.9': [140.4, 149.7, 156.8] },
    index: ['1950-01-01', '1950-02-01', '1950-03-01'],
  }]],
  metrics: null,
  warnings: [],
};

const crossValidationResponse = {
  "horizon": 3, "n_windows": 2, "step": 3, "refit": true, "season_length": 12, "quantiles": [0.1, 0.5, 0.9], "metric": "wql",
  "leaderboard": [
    {"rank": 1, "model": "seasonal-naive", "model_size": "default", "score": 0.084}, {"rank": 2, "model": "naive", "model_size": "default", "score": 0.098},
  ],
  "models": [
    {
      "model": "naive", "model_size": "default", "scores": {"mase": 2.345, "wql": 0.098, "smape": 15.635, "coverage": {"80": 0.5}},
      "series": [
        {
          "scores": {"mase": 2.345, "wql": 0.098, "smape": 15.635, "coverage": {"80": 0.5}},
          "windows": [
            {
              "window": 0, "cutoff": 21, "index": ["1950-10-01", "1950-11-01", "1950-12-01"],
              "prediction": {"mean": [158, 158, 158], "0.1": [141.85, 135.161, 130.028], "0.5": [158, 158, 158], "0.9": [174.15, 180.839, 185.972]},
              "actual": [133, 114, 140], "scores": {"mase": 2.373, "wql": 0.15, "smape": 20.539, "coverage": {"80": 0.333}},
            },
            {
              "window": 1, "cutoff": 18, "index": ["1950-07-01", "1950-08-01", "1950-09-01"],
              "prediction": {"mean": [149, 149, 149], "0.1": [133.179, 126.625, 121.597], "0.5": [149, 149, 149], "0.9": [164.821, 171.375, 176.403]},
              "actual": [170, 170, 158], "scores": {"mase": 2.318, "wql": 0.059, "smape": 10.732, "coverage": {"80": 0.667}},
            },
          ],
        },
      ],
    },
    {
      "model": "seasonal-naive", "model_size": "default", "scores": {"mase": 2.127, "wql": 0.084, "smape": 13.33, "coverage": {"80": 0.333}},
      "series": [
        {
          "scores": {"mase": 2.127, "wql": 0.084, "smape": 13.33, "coverage": {"80": 0.333}},
          "windows": [
            {
              "window": 0, "cutoff": 21, "index": ["1950-10-01", "1950-11-01", "1950-12-01"],
              "prediction": {"mean": [119, 104, 118], "0.1": [100.606, 85.606, 99.606], "0.5": [119, 104, 118], "0.9": [137.394, 122.394, 136.394]},
              "actual": [133, 114, 140], "scores": {"mase": 1.255, "wql": 0.065, "smape": 12.447, "coverage": {"80": 0.667}},
            },
            {
              "window": 1, "cutoff": 18, "index": ["1950-07-01", "1950-08-01", "1950-09-01"],
              "prediction": {"mean": [148, 148, 136], "0.1": [137.51, 137.51, 125.51], "0.5": [148, 148, 136], "0.9": [158.49, 158.49, 146.49]},
              "actual": [170, 170, 158], "scores": {"mase": 3, "wql": 0.099, "smape": 14.213, "coverage": {"80": 0}},
            },
          ],
        },
      ],
    },
  ],
  "warnings": [],
};

const job = {
  job_id: '0b5e8f5e-4c1a-4f7e-9a51-2f4c3b1d9e77', status: 'completed', model: 'naive', created_at: '2026-01-05T09:30:00.000Z',
  started_at: '2026-01-05T09:30:00.120Z', finished_at: '2026-01-05T09:30:00.310Z', attempts: 1,
};
const cvJob = {
  job_id: '5c2a7d41-8e3b-4f0a-b6d9-1e7f3a9c2b58', status: 'completed',
  models: [{ model: 'naive', model_size: 'default' }, { model: 'seasonal-naive', model_size: 'default' }], created_at: '2026-01-05T09:31:00.000Z',
  started_at: '2026-01-05T09:31:00.140Z', finished_at: '2026-01-05T09:31:00.420Z', attempts: 1,
};
const anomaliesResponse = {
  "model":"seasonal-naive", "model_size":"default", "mode":"in-sample", "level":99, "step":1, "context":100000, "min_history":24, "quantiles":[0.005,0.5,0.995],
  "n_windows":12, "n_anomalies":1,
  "series":[
    {
      "scored_from":24,
      "index":[
        "1951-01-01", "1951-02-01", "1951-03-01", "1951-04-01", "1951-05-01", "1951-06-01", "1951-07-01", "1951-08-01", "1951-09-01", "1951-10-01",
        "1951-11-01", "1951-12-01",
      ],
      "actual":[145,150,178,163,172,260,199,199,184,162,146,166], "forecast":[115,126,141,135,125,149,170,170,158,133,114,140],
      "median":[115,126,141,135,125,149,170,170,158,133,114,140], "lo":[30.723,41.723,56.723,50.723,40.723,64.723,85.723,85.723,73.723,48.723,29.723,55.723],
      "hi":[199.277,210.277,225.277,219.277,209.277,233.277,254.277,254.277,242.277,217.277,198.277,224.277],
      "anomaly":[false,false,false,false,false,true,false,false,false,false,false,false],
      "score":[0.356,0.285,0.439,0.332,0.558,1.317,0.344,0.344,0.309,0.344,0.38,0.309], "anomalies":[29],
    },
  ],
  "warnings":[],
};
// an anomaly job: the answer's model, size and mode, known at submit
const anomalyJob = {
  job_id: '9d4e2b7a-1c3f-4a5e-8b6d-7f0a2c4e6b81', status: 'completed', model: 'seasonal-naive', model_size: 'default', mode: 'in-sample',
  created_at: '2026-01-05T09:30:00.000Z', started_at: '2026-01-05T09:30:00.110Z', finished_at: '2026-01-05T09:30:00.190Z', attempts: 1,
};
const apiKey = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', name: 'ci-pipeline', prefix: 'hzn_Ab3dE', created_at: '2026-01-05T09:30:00.000Z', revoked_at: null,
};

/** Keyed `METHOD /path` as in the document (`{id}` for parameters). */
// fine-tuning (docs/fine-tuning.md): chronos-2 small on three years of the airline passengers, held-out
// last 3 months; test/openapi.test.ts gives its server the tiny chronos-2 checkpoint for it
const airline36 = [
  112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118, 115, 126, 141, 135, 125, 149, 170, 170, 158, 133, 114, 140, 145, 150, 178, 163, 172, 178, 199,
  199, 184, 162, 146, 166,
];
const fineTuning = {
  model: 'chronos-2', model_size: 'small', freq: 'MS', horizon: 3, steps: 10, learning_rate: 1e-5, name: 'airline-v1',
  series: [{ target: airline36, index: airline36.map((_, t) => `${1949 + Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}-01`) }],
};
const fineTuningJob = {
  job_id: '5b1d0c52-7a36-4e0e-8a8c-3f3a4c1a2b90', status: 'queued', model: 'chronos-2', model_size: 'small', model_id: 'ft-3f9a0c1d2e4b5a6978c1d2e3',
  name: 'airline-v1', created_at: '2026-01-05T09:30:00.000Z', attempts: 0,
};
const fineTuningSummary = {
  series: 1, steps: 10, mode: 'full', learning_rate: 1e-5, horizon: 3, validation_windows: 1, validation_wql_before: 0.0612, validation_wql_after: 0.0477,
  final_loss: 0.41, final_validation_loss: 0.44, train_seconds: 2.1, steps_per_second: 4.76, device: 'cpu',
};

// series embeddings (POST /v1/embeddings): answers of the tiny random-weight chronos-2 checkpoint test/openapi.test.ts
// gives its server (16 values per vector, rounded here; chronos-2 base answers 768)
const airline24 = airline36.slice(0, 24);
const embeddings = {
  model: 'chronos-2', series: [{ target: airline24 }, { target: [41.2, 39.8, 38.5, null, 37.9, 40.3, 45.1, 52.6] }],
};
const embeddingsPatch = { model: 'chronos-2', granularity: 'patch', series: [{ target: airline24 }] };
const airlineVector = [-0.1422, -0.1883, -0.0617, 0.0166, 0.038, -0.1527, 0.3567, -0.2197, -0.1114, -0.1072, -0.3477, 0.042, 0.158, -0.0071, -0.0983, 0.2006];
const embeddingsResponse = {
  model: 'chronos-2', model_size: 'base', granularity: 'series', dimension: 16, patch_size: 16, context: 8192,
  embeddings: [
    { embedding: airlineVector, embedded_from: 0 },
    { embedding: [0.0374, -0.235, -0.1107, -0.1873, 0.0764, -0.02, 0.4013, -0.2685, -0.1072, -0.0779, -0.1618, 0.1213, 0.2385, 0.2343, 0.0034, 0.3555],
      embedded_from: 0 },
  ],
  warnings: [],
};
const embeddingJob = {
  job_id: '2c7e9a41-5b3d-4f6e-9a8c-1d2e3f4a5b6c', status: 'completed', model: 'chronos-2', model_size: 'base', granularity: 'series',
  created_at: '2026-01-05T09:30:00.000Z', started_at: '2026-01-05T09:30:00.105Z', finished_at: '2026-01-05T09:30:00.160Z', attempts: 1,
};

// the answer of `stores` (a real one, rounded): series[i] is input series i's reconciled forecast; `hierarchy` every node's
const storesForecastResponse = {
  status: 'completed', model: 'auto-ets', model_size: 'default',
  series: [
    [
      {
        prediction: {
          mean: [140.642, 140.642, 140.642], '0.1': [120.885, 112.354, 105.848], '0.5': [140.642, 140.642, 140.642], '0.9': [160.399, 168.929, 175.435],
        },
        index: ['1951-01-01', '1951-02-01', '1951-03-01'],
      },
    ],
    [
      {
        prediction: { mean: [71.24, 71.24, 71.24], '0.1': [60.965, 56.587, 53.242], '0.5': [71.24, 71.24, 71.24], '0.9': [81.516, 85.893, 89.239] },
        index: ['1951-01-01', '1951-02-01', '1951-03-01'],
      },
    ],
    [
      {
        prediction: {
          mean: [102.442, 102.442, 102.442], '0.1': [85.633, 80.731, 76.733], '0.5': [102.442, 102.442, 102.442], '0.9': [119.252, 124.153, 128.152],
        },
        index: ['1951-01-01', '1951-02-01', '1951-03-01'],
      },
    ],
  ],
  metrics: null, warnings: [],
  hierarchy: {
    method: 'mint_shrink', intervals: 'normality', warnings: [],
    nodes: [
      {
        id: 'total', level: 'total', parent: null, series: [0, 1, 2], index: ['1951-01-01', '1951-02-01', '1951-03-01'],
        base: {
          mean: [316.994, 316.994, 316.994], '0.1': [270.906, 251.819, 237.173], '0.5': [316.994, 316.994, 316.994], '0.9': [363.082, 382.169, 396.815],
        },
        reconciled: {
          mean: [314.325, 314.325, 314.325], '0.1': [268.866, 251.542, 238.075], '0.5': [314.325, 314.325, 314.325], '0.9': [359.784, 377.107, 390.574],
        },
      },
      {
        id: 'north', level: 'region', parent: 'total', series: [0, 1], index: ['1951-01-01', '1951-02-01', '1951-03-01'],
        base: {
          mean: [210.996, 210.996, 210.996], '0.1': [181.112, 168.735, 159.238], '0.5': [210.996, 210.996, 210.996], '0.9': [240.881, 253.257, 262.754],
        },
        reconciled: {
          mean: [211.882, 211.882, 211.882], '0.1': [182.485, 169.831, 160.176], '0.5': [211.882, 211.882, 211.882], '0.9': [241.28, 253.933, 263.588],
        },
      },
      {
        id: 'south', level: 'region', parent: 'total', series: [2], index: ['1951-01-01', '1951-02-01', '1951-03-01'],
        base: {
          mean: [101.703, 101.703, 101.703], '0.1': [84.621, 80.082, 76.308], '0.5': [101.703, 101.703, 101.703], '0.9': [118.785, 123.324, 127.098],
        },
        reconciled: {
          mean: [102.442, 102.442, 102.442], '0.1': [85.633, 80.731, 76.733], '0.5': [102.442, 102.442, 102.442], '0.9': [119.252, 124.153, 128.152],
        },
      },
      {
        id: 'north/n1', level: 'region/store', parent: 'north', series: [0], index: ['1951-01-01', '1951-02-01', '1951-03-01'],
        base: {
          mean: [139.997, 139.997, 139.997], '0.1': [120.065, 111.81, 105.475], '0.5': [139.997, 139.997, 139.997], '0.9': [159.93, 168.185, 174.52],
        },
        reconciled: {
          mean: [140.642, 140.642, 140.642], '0.1': [120.885, 112.354, 105.848], '0.5': [140.642, 140.642, 140.642], '0.9': [160.399, 168.929, 175.435],
        },
      },
      {
        id: 'north/n2', level: 'region/store', parent: 'north', series: [1], index: ['1951-01-01', '1951-02-01', '1951-03-01'],
        base: { mean: [70.999, 70.999, 70.999], '0.1': [60.694, 56.427, 53.152], '0.5': [70.999, 70.999, 70.999], '0.9': [81.304, 85.571, 88.846] },
        reconciled: { mean: [71.24, 71.24, 71.24], '0.1': [60.965, 56.587, 53.242], '0.5': [71.24, 71.24, 71.24], '0.9': [81.516, 85.893, 89.239] },
      },
      {
        id: 'south/s1', level: 'region/store', parent: 'south', series: [2], index: ['1951-01-01', '1951-02-01', '1951-03-01'],
        base: {
          mean: [101.703, 101.703, 101.703], '0.1': [84.621, 80.082, 76.308], '0.5': [101.703, 101.703, 101.703], '0.9': [118.785, 123.324, 127.098],
        },
        reconciled: {
          mean: [102.442, 102.442, 102.442], '0.1': [85.633, 80.731, 76.733], '0.5': [102.442, 102.442, 102.442], '0.9': [119.252, 124.153, 128.152],
        },
      },
    ],
  },
};

// the answer of `storesCrossValidation` (a real one, rounded; two of its six nodes)
const storesCrossValidationResponse = {
  horizon: 3, n_windows: 1, step: 3, refit: true, season_length: 12, quantiles: [0.1, 0.5, 0.9], metric: 'wql',
  leaderboard: [{ rank: 1, model: 'seasonal-naive', model_size: 'default', score: 0.055 }],
  models: [
    {
      model: 'seasonal-naive', model_size: 'default', scores: { mase: 1.158, wql: 0.055, smape: 10.485, coverage: { '80': 0.667 } },
      series: [
        {
          scores: { mase: 1.255, wql: 0.065, smape: 12.447, coverage: { '80': 0.667 } },
          windows: [
            {
              window: 0, cutoff: 21, index: ['1950-10-01', '1950-11-01', '1950-12-01'],
              prediction: { mean: [119, 104, 118], '0.1': [100.595, 85.595, 99.595], '0.5': [119, 104, 118], '0.9': [137.405, 122.405, 136.405] },
              actual: [133, 114, 140], scores: { mase: 1.255, wql: 0.065, smape: 12.447, coverage: { '80': 0.667 } },
            },
          ],
        },
        {
          scores: { mase: 1.364, wql: 0.063, smape: 13.437, coverage: { '80': 0.667 } },
          windows: [
            {
              window: 0, cutoff: 21, index: ['1950-10-01', '1950-11-01', '1950-12-01'],
              prediction: { mean: [62, 52, 61], '0.1': [52.774, 42.774, 51.774], '0.5': [62, 52, 61], '0.9': [71.226, 61.226, 70.226] },
              actual: [68, 61, 71], scores: { mase: 1.364, wql: 0.063, smape: 13.437, coverage: { '80': 0.667 } },
            },
          ],
        },
        {
          scores: { mase: 0.857, wql: 0.037, smape: 5.572, coverage: { '80': 0.667 } },
          windows: [
            {
              window: 0, cutoff: 21, index: ['1950-10-01', '1950-11-01', '1950-12-01'],
              prediction: { mean: [97, 80, 94], '0.1': [86.91, 69.91, 83.91], '0.5': [97, 80, 94], '0.9': [107.09, 90.09, 104.09] }, actual: [96, 83, 106],
              scores: { mase: 0.857, wql: 0.037, smape: 5.572, coverage: { '80': 0.667 } },
            },
          ],
        },
      ],
      hierarchy: {
        method: 'mint_shrink', intervals: 'normality', warnings: [],
        levels: [
          {
            level: 'total', nodes: 1,
            scores: {
              base: { mase: 1.269, wql: 0.055, smape: 10.144, coverage: { '80': 0.667 } },
              reconciled: { mase: 1.269, wql: 0.055, smape: 10.144, coverage: { '80': 0.667 } },
            },
          },
          {
            level: 'region', nodes: 2,
            scores: {
              base: { mase: 1.074, wql: 0.055, smape: 9.18, coverage: { '80': 0.667 } },
              reconciled: { mase: 1.074, wql: 0.056, smape: 9.18, coverage: { '80': 0.667 } },
            },
          },
          {
            level: 'region/store', nodes: 3,
            scores: {
              base: { mase: 1.158, wql: 0.055, smape: 10.485, coverage: { '80': 0.667 } },
              reconciled: { mase: 1.158, wql: 0.055, smape: 10.485, coverage: { '80': 0.667 } },
            },
          },
        ],
        nodes: [
          {
            id: 'total', level: 'total', parent: null, series: [0, 1, 2],
            scores: {
              base: { mase: 1.269, wql: 0.055, smape: 10.144, coverage: { '80': 0.667 } },
              reconciled: { mase: 1.269, wql: 0.055, smape: 10.144, coverage: { '80': 0.667 } },
            },
            windows: [
              {
                window: 0, cutoff: 21, index: ['1950-10-01', '1950-11-01', '1950-12-01'], actual: [297, 258, 317],
                base: { mean: [278, 236, 273], '0.1': [241.604, 199.604, 236.604], '0.5': [278, 236, 273], '0.9': [314.396, 272.396, 309.396] },
                reconciled: { mean: [278, 236, 273], '0.1': [242.049, 200.049, 237.049], '0.5': [278, 236, 273], '0.9': [313.951, 271.951, 308.951] },
                scores: {
                  base: { mase: 1.269, wql: 0.055, smape: 10.144, coverage: { '80': 0.667 } },
                  reconciled: { mase: 1.269, wql: 0.055, smape: 10.144, coverage: { '80': 0.667 } },
                },
              },
            ],
          },
          {
            id: 'north/n1', level: 'region/store', parent: 'north', series: [0],
            scores: {
              base: { mase: 1.255, wql: 0.065, smape: 12.447, coverage: { '80': 0.667 } },
              reconciled: { mase: 1.255, wql: 0.065, smape: 12.447, coverage: { '80': 0.667 } },
            },
            windows: [
              {
                window: 0, cutoff: 21, index: ['1950-10-01', '1950-11-01', '1950-12-01'], actual: [133, 114, 140],
                base: { mean: [119, 104, 118], '0.1': [100.606, 85.606, 99.606], '0.5': [119, 104, 118], '0.9': [137.394, 122.394, 136.394] },
                reconciled: { mean: [119, 104, 118], '0.1': [100.595, 85.595, 99.595], '0.5': [119, 104, 118], '0.9': [137.405, 122.405, 136.405] },
                scores: {
                  base: { mase: 1.255, wql: 0.065, smape: 12.447, coverage: { '80': 0.667 } },
                  reconciled: { mase: 1.255, wql: 0.065, smape: 12.447, coverage: { '80': 0.667 } },
                },
              },
            ],
          },
        ],
      },
    },
  ],
  warnings: [],
};

// the answer of `temporalDaily` (a real one, rounded): each series reconciled with its weekly sums
const temporalDailyResponse = {
  status: 'completed', model: 'auto-ets', model_size: 'default',
  series: [
    [
      {
        prediction: {
          mean: [117.984, 137.275, 131.294, 122.095, 104.609, 89.879, 107.921], '0.1': [109.408, 127.734, 120.878, 110.871, 92.631, 77.193, 94.564],
          '0.5': [117.984, 137.275, 131.294, 122.095, 104.609, 89.879, 107.921], '0.9': [126.559, 146.816, 141.711, 133.319, 116.586, 102.565, 121.278],
        },
        index: ['2024-01-29', '2024-01-30', '2024-01-31', '2024-02-01', '2024-02-02', '2024-02-03', '2024-02-04'],
      },
    ],
    [
      {
        prediction: {
          mean: [72.953, 66.8, 55.752, 51.557, 55.208, 60.697, 67.417], '0.1': [64.526, 58.373, 47.324, 43.129, 46.78, 52.269, 58.989],
          '0.5': [72.953, 66.8, 55.752, 51.557, 55.208, 60.697, 67.417], '0.9': [81.381, 75.228, 64.18, 59.984, 63.636, 69.124, 75.844],
        },
        index: ['2024-01-29', '2024-01-30', '2024-01-31', '2024-02-01', '2024-02-02', '2024-02-03', '2024-02-04'],
      },
    ],
  ],
  metrics: null,
  warnings: [
    { field: 'model', message: 'temporal level W: series 0: auto-ets needs at least 7 observations, got 4; forecast with naive' },
    { field: 'model', message: 'temporal level W: series 1: auto-ets needs at least 7 observations, got 4; forecast with naive' },
  ],
  hierarchy: {
    method: 'wls_struct', intervals: 'normality',
    warnings: [
      'reconcile "wls_var" weighs by in-sample residuals and hierarchicalforecast\'s temporal reconciliation takes no in-sample values: '
        + 'wls_struct was used (weights from the hierarchy\'s structure)',
    ],
    nodes: [
      {
        id: 'series[0]/W', level: 'W', parent: null, series: [0], index: ['2024-02-04'],
        base: { mean: [797], '0.1': [739.056], '0.5': [797], '0.9': [854.944] },
        reconciled: { mean: [811.056], '0.1': [778.61], '0.5': [811.056], '0.9': [843.502] },
      },
      {
        id: 'series[0]', level: 'series', parent: 'series[0]/W', series: [0],
        index: ['2024-01-29', '2024-01-30', '2024-01-31', '2024-02-01', '2024-02-02', '2024-02-03', '2024-02-04'],
        base: {
          mean: [119.992, 139.283, 133.302, 124.103, 106.617, 91.887, 109.929], '0.1': [112.198, 130.276, 123.227, 113.061, 94.688, 79.132, 96.398],
          '0.5': [119.992, 139.283, 133.302, 124.103, 106.617, 91.887, 109.929], '0.9': [127.785, 148.29, 143.378, 135.144, 118.546, 104.642, 123.46],
        },
        reconciled: {
          mean: [117.984, 137.275, 131.294, 122.095, 104.609, 89.879, 107.921], '0.1': [109.408, 127.734, 120.878, 110.871, 92.631, 77.193, 94.564],
          '0.5': [117.984, 137.275, 131.294, 122.095, 104.609, 89.879, 107.921], '0.9': [126.559, 146.816, 141.711, 133.319, 116.586, 102.565, 121.278],
        },
      },
      {
        id: 'series[1]/W', level: 'W', parent: null, series: [1], index: ['2024-02-04'],
        base: { mean: [445], '0.1': [407.798], '0.5': [445], '0.9': [482.202] },
        reconciled: { mean: [430.384], '0.1': [408.673], '0.5': [430.384], '0.9': [452.095] },
      },
      {
        id: 'series[1]', level: 'series', parent: 'series[1]/W', series: [1],
        index: ['2024-01-29', '2024-01-30', '2024-01-31', '2024-02-01', '2024-02-02', '2024-02-03', '2024-02-04'],
        base: {
          mean: [70.865, 64.712, 53.664, 49.469, 53.12, 58.609, 65.329], '0.1': [62.401, 56.248, 45.2, 41.005, 44.656, 50.145, 56.865],
          '0.5': [70.865, 64.712, 53.664, 49.469, 53.12, 58.609, 65.329], '0.9': [79.329, 73.176, 62.128, 57.933, 61.584, 67.073, 73.793],
        },
        reconciled: {
          mean: [72.953, 66.8, 55.752, 51.557, 55.208, 60.697, 67.417], '0.1': [64.526, 58.373, 47.324, 43.129, 46.78, 52.269, 58.989],
          '0.5': [72.953, 66.8, 55.752, 51.557, 55.208, 60.697, 67.417], '0.9': [81.381, 75.228, 64.18, 59.984, 63.636, 69.124, 75.844],
        },
      },
    ],
  },
};

export const OPENAPI_EXAMPLES: Record<string, OperationExamples> = {
  'POST /v1/embeddings': {
    request: {
      series: { summary: 'A vector per series: two years of airline passengers and an hourly series with a missing value (chronos-2)', value: embeddings },
      patches: { summary: 'granularity "patch": also a vector per patch of 16 values and the [REG] summary token', value: embeddingsPatch },
    },
    response: { 200: embeddingsResponse },
  },
  'POST /v1/embedding-jobs': {
    request: { series: { summary: 'The same embeddings as a job (for answers over what one synchronous call may hold)', value: embeddings } },
    response: { 202: { ...embeddingJob, status: 'queued', started_at: undefined, finished_at: undefined, attempts: undefined } },
  },
  'GET /v1/embedding-jobs/{id}': { response: { 200: { ...embeddingJob, result: embeddingsResponse } } },
  'GET /v1/embedding-jobs': { response: { 200: { jobs: [embeddingJob], next_cursor: null } } },
  'DELETE /v1/embedding-jobs/{id}': { response: { 200: { ...embeddingJob, status: 'cancelled', started_at: undefined, attempts: 0 } } },
  'POST /v1/fine-tuning-jobs': {
    request: { airline: { summary: 'chronos-2 small fine-tuned for 10 steps on one monthly series (the last 3 months validate it)', value: fineTuning } },
    response: { 202: fineTuningJob },
  },
  'GET /v1/fine-tuning-jobs/{id}': { response: { 200: {
    ...fineTuningJob, status: 'completed', started_at: '2026-01-05T09:30:00.120Z', finished_at: '2026-01-05T09:30:09.310Z', attempts: 1,
    progress: { step: 10, steps: 10, loss: 0.41, validation_loss: 0.44 }, summary: fineTuningSummary,
  } } },
  'GET /v1/fine-tuning-jobs': { response: { 200: { jobs: [fineTuningJob], next_cursor: null } } },
  'POST /v1/forecast': {
    request: {
      monthly: { summary: 'Monthly series, naive model', value: monthly },
      hourly_pandas: { summary: 'Hourly, timestamps as pandas writes them (space, UTC offset), a missing value', value: hourlyPandas },
      backtest: { summary: 'Forecast plus a backtest over the last 3 months (metrics: MASE, WQL, sMAPE)', value: backtest },
      auto: { summary: 'model "auto": cross-validate naive and seasonal-naive, forecast each series with its winner', value: auto },
      prism_members: { summary: 'prism blending the members this request names (prism_members: naive and seasonal-naive) instead ' +
        'of the deployment\'s', value: prism },
      hierarchy: { summary: 'A hierarchy: three stores in two regions, every node forecast with auto-ets, then reconciled (mint_shrink)', value: stores },
      temporal: { summary: 'A temporal hierarchy: two daily series, each reconciled with its weekly sums', value: temporalDaily },
    },
    response: { 200: forecastResponse },
    responseExamples: { 200: { hierarchy: storesForecastResponse, temporal: temporalDailyResponse } },
  },
  'POST /v1/cross-validation': {
    request: {
      monthly: { summary: 'naive vs seasonal-naive on the last two quarters of 1950 (2 windows of 3 months)', value: crossValidation },
      hierarchy: {
        summary: 'The three stores\' hierarchy: each window reconciled, base vs reconciled scores per level and node', value: storesCrossValidation,
      },
    },
    response: { 200: crossValidationResponse },
    responseExamples: { 200: { hierarchy: storesCrossValidationResponse } },
  },
  'POST /v1/anomalies': {
    request: { spike: { summary: 'Three years of airline passengers with a spike in June 1951, seasonal-naive at level 99', value: anomalies } },
    response: { 200: anomaliesResponse },
  },
  'POST /v1/forecast-jobs': {
    request: {
      monthly: { summary: 'Queue the monthly forecast as a job', value: monthly },
      hierarchy: { summary: 'Queue the three stores\' hierarchy as a job (its result: the synchronous answer)', value: stores },
    },
    response: { 202: { job_id: job.job_id, status: 'queued', model: 'naive', created_at: job.created_at } },
  },
  'GET /v1/forecast-jobs/{id}': { response: { 200: { ...job, model_size: 'default', series: forecastResponse.series, metrics: null, warnings: [] } } },
  'GET /v1/forecast-jobs': { response: { 200: { jobs: [job], next_cursor: null } } },
  'DELETE /v1/forecast-jobs/{id}': { response: { 200: { ...job, status: 'cancelled', started_at: undefined, attempts: 0 } } },
  'POST /v1/cross-validation-jobs': {
    request: {
      monthly: { summary: 'Queue the naive vs seasonal-naive cross-validation as a job', value: crossValidation },
      hierarchy: { summary: 'Queue the three stores\' hierarchy cross-validation as a job', value: storesCrossValidation },
    },
    response: { 202: { job_id: cvJob.job_id, status: 'queued', models: cvJob.models, created_at: cvJob.created_at } },
  },
  'GET /v1/cross-validation-jobs/{id}': { response: { 200: { ...cvJob, result: crossValidationResponse } } },
  'GET /v1/cross-validation-jobs': { response: { 200: { jobs: [cvJob], next_cursor: null } } },
  'DELETE /v1/cross-validation-jobs/{id}': { response: { 200: { ...cvJob, status: 'cancelled', started_at: undefined, attempts: 0 } } },
  'POST /v1/anomaly-jobs': {
    request: { spike: { summary: 'Queue the airline passengers\' anomaly detection as a job', value: anomalies } },
    response: { 202: {
      job_id: anomalyJob.job_id, status: 'queued', model: 'seasonal-naive', model_size: 'default', mode: 'in-sample', created_at: anomalyJob.created_at,
    } },
  },
  'GET /v1/anomaly-jobs/{id}': { response: { 200: { ...anomalyJob, result: anomaliesResponse } } },
  'GET /v1/anomaly-jobs': { response: { 200: { jobs: [anomalyJob], next_cursor: null } } },
  'DELETE /v1/anomaly-jobs/{id}': { response: { 200: { ...anomalyJob, status: 'cancelled', started_at: undefined, attempts: 0 } } },
  'POST /v1/api-keys': {
    request: { ci: { summary: 'A key for a CI pipeline', value: { name: 'ci-pipeline' } } },
    response: { 201: { id: apiKey.id, name: apiKey.name, key: 'hzn_Ab3dE…(secret, shown once)', prefix: apiKey.prefix, created_at: apiKey.created_at } },
  },
  'GET /v1/api-keys': { response: { 200: { keys: [apiKey] } } },
  'DELETE /v1/api-keys/{id}': { response: { 200: { ...apiKey, revoked_at: '2026-01-06T10:00:00.000Z' } } },
  'GET /v1/status': { response: { 200: { status: 'ok', version: '0.1.0', store: 'pglite', workers: [{ group: 'core', state: 'ready', restarts: 0 }] } } },
  'GET /v1/warmup': { response: { 200: { model: 'naive', model_size: 'default', status: 'warm', load_ms: 0.4, device: 'cpu' } } },
  // stored series (docs/stored-series.md); test/openapi.test.ts sends these to the path with {id} = "example"
  'PUT /v1/series/{id}': {
    request: { monthly: {
      summary: 'A monthly history (one year) stored as series "example"',
      value: { freq: 'MS', index: monthly.series[0].index, target: monthly.series[0].target },
    } },
    response: { 201: {
      series_id: 'example', freq: 'MS', points: 12, first_date: '1949-01-01', last_date: '1949-12-01', created_at: '2026-01-05T09:30:00.000Z',
      updated_at: '2026-01-05T09:30:00.000Z', forecast_every: null, schedule: null, drift: null, webhook: null,
    } },
  },
  'POST /v1/series/{id}/observations': {
    request: { next: { summary: 'The next month; sent again it changes nothing', value: { index: ['1950-01-01'], target: [115] } } },
    response: { 200: { series_id: 'example', appended: 1, unchanged: 0, points: 13, last_date: '1950-01-01' } },
  },
  'POST /v1/series/observations': {
    request: { many: {
      summary: 'Appends to several series at once (all or nothing)',
      value: { series: [{ series_id: 'example', index: ['1950-01-01', '1950-02-01'], target: [115, 126] }] },
    } },
    response: { 200: { series: [{ series_id: 'example', appended: 1, unchanged: 1, points: 14, last_date: '1950-02-01' }] } },
  },
  ...NIXTLA_EXAMPLES,
  ...KSERVE_EXAMPLES,
};

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { examples?: unknown; example?: unknown }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown; examples?: unknown }> }>;
}

/** Puts the examples into a generated document (@fastify/swagger's transformObject); drops undefined. */
export function addExamples<T extends { paths?: Record<string, Record<string, OpenApiOperation>> }>(document: T): T {
  for (const [key, examples] of Object.entries(OPENAPI_EXAMPLES)) {
    const [method, path] = key.split(' ');
    const operation = document.paths?.[path]?.[method.toLowerCase()];
    if (!operation) continue; // a route this build does not register
    const media = operation.requestBody?.content?.['application/json'];
    if (media && examples.request) {
      delete media.example;
      media.examples = JSON.parse(JSON.stringify(examples.request));
    }
    for (const [status, body] of Object.entries(examples.response ?? {})) {
      const response = operation.responses?.[status]?.content?.['application/json'];
      const named = examples.responseExamples?.[Number(status)];
      // the answers of some request examples differ in shape (a hierarchy's): named examples, the plain answer as `default`
      if (response && named) {
        response.examples = JSON.parse(JSON.stringify({
          default: { summary: 'the plain answer', value: body }, ...Object.fromEntries(Object.entries(named).map(([name, value]) => [name, { value }])),
        }));
      } else if (response) response.example = JSON.parse(JSON.stringify(body));
    }
  }
  return document;
}
