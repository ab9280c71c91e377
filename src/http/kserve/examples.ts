// OpenAPI examples of the KServe time-series operations: a request as a KServe client sends it (test/openapi.test.ts
// sends it to a real server) and that server's answer (rounded).
import type { OperationExamples } from '../operation-examples.ts';

const airline = [112, 118, 132, 129, 121, 135, 148, 148, 136, 119, 104, 118, 115, 126];

export const KSERVE_EXAMPLES: Record<string, OperationExamples> = {
  'POST /v1/timeseries/forecast': {
    request: {
      univariate_and_multivariate: {
        summary: 'a univariate and a two-variate daily input, auto-ets, 3 steps with the 10% and 90% quantiles',
        value: {
          model: 'auto-ets', options: { horizon: 3, quantiles: [0.1, 0.9] },
          inputs: [
            { type: 'univariate_time_series', name: 'airline', series: airline, frequency: 'D', start_timestamp: '2026-01-01T00:00:00Z' },
            { type: 'multivariate_time_series', name: 'store', series: [[10, 3], [12, 4], [11, 3], [13, 5], [12, 4], [14, 5]], frequency: 'D',
              start_timestamp: '2026-01-01T00:00:00Z' },
          ],
        },
      },
      no_start_timestamp: {
        summary: 'hourly, no start_timestamp (dated from 2000-01-01T00:00:00Z), naive',
        value: {
          model: 'naive', options: { horizon: 2, quantiles: [0.1, 0.9] },
          inputs: [{ type: 'univariate_time_series', name: 'load', series: [1, 2, 3, 4], frequency: 'hour' }],
        },
      },
    },
    response: { 200: {
      id: '834a55dc-eebc-4cc3-aab1-c50b9124d5a3', created_at: 1795871924, status: 'completed', error: null, model: 'auto-ets',
      outputs: [
        { type: 'time_series_forecast', id: '834a55dc-eebc-4cc3-aab1-c50b9124d5a3-0', status: 'completed', error: null, content: [{
          type: 'univariate_time_series', name: 'airline', mean_forecast: [126.0, 126.0, 126.0], frequency: 'D', start_timestamp: '2026-01-15T00:00:00Z',
          quantiles: { '0.1': [109.52, 102.69, 97.45], '0.9': [142.48, 149.31, 154.54] },
        }] },
        { type: 'time_series_forecast', id: '834a55dc-eebc-4cc3-aab1-c50b9124d5a3-1', status: 'completed', error: null, content: [{
          type: 'multivariate_time_series', name: 'store', mean_forecast: [[14, 5], [14, 5], [14, 5]], frequency: 'D', start_timestamp: '2026-01-07T00:00:00Z',
          quantiles: { '0.1': [[11.86, 3.38], [10.97, 2.71], [10.29, 2.19]], '0.9': [[16.14, 6.62], [17.03, 7.29], [17.71, 7.81]] },
        }] },
      ],
      usage: { prompt_tokens: 26, completion_tokens: 9, total_tokens: 35 },
    } },
  },
  'GET /v1/timeseries/models': { response: { 200: ['naive', 'seasonal-naive', 'auto-ets', 'auto-arima', 'chronos-2', 'auto'] } },
};
