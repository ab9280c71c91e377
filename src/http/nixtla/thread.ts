// The Nixtla SDK's large forecasts in a forecast thread (issue 32; the loop's side: large-bodies.ts). A payload
// of HORIZON_REQUEST_THREAD_MIN_BYTES or more is parsed, validated against the route's schema and translated
// into POST /v1/forecast's body here — forecast.ts's forecastRequest itself, every 422 at once — and that body
// goes back as JSON bytes; a large /v1 answer comes back here to become the SDK's. The same functions as on the
// event loop, so the same bytes and errors (test/nixtla.large-bodies.test.ts).
import secureJson from 'secure-json-parse';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HorizonError } from '../../errors.ts';
import { ModelRegistry } from '../../runtime/models.ts';
import { runInContext } from '../request-context.ts';
import { bodyValidator } from '../body-validator.ts';
import { fieldErrorsFromAjv } from '../validation-errors.ts';
import { NixtlaForecastRequest } from './schemas.ts';
import { forecastAnswer, forecastJobAnswer } from './translate.ts';
import { forecastRequest, type ForecastBody } from './forecast.ts';
import type { NixtlaContext } from './common.ts';
import type { Effects, NixtlaAnswerJob, NixtlaAnswerReply, NixtlaForecastJob, NixtlaForecastReply } from './thread-messages.ts';

const validate = bodyValidator(NixtlaForecastRequest);
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export function nixtlaForecastReply({ id, bytes, job, context }: NixtlaForecastJob): NixtlaForecastReply {
  let body: unknown;
  try {
    body = secureJson.parse(decoder.decode(bytes), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { id, kind: 'bad_json' };
  }
  if (!validate(body)) return { id, kind: 'invalid', errors: fieldErrorsFromAjv(validate.errors ?? [], 'body') };
  const effects: Effects = { logFields: {}, headers: {} };
  const request = { logFields: effects.logFields } as unknown as FastifyRequest;
  const reply = { header(name: string, value: string) { effects.headers[name] = value; return reply; } } as unknown as FastifyReply;
  const registry = ModelRegistry.fromSnapshot(context.registry);
  const ctx = { registry, config: context.config, nixtlaDefaultModel: context.nixtlaDefaultModel } as NixtlaContext;
  try {
    const translate = () => forecastRequest(ctx, request, reply, body as ForecastBody, job);
    const translated = runInContext({ requestId: '', fields: {}, privateModels: context.privateModels }, translate);
    return { id, kind: 'translated', body: encoder.encode(JSON.stringify(translated.horizon)), bands: translated.bands, ...effects };
  } catch (error) {
    if (!(error instanceof HorizonError)) return { id, kind: 'fallback' };
    return { id, kind: 'failed', code: error.code, message: error.message, errors: error.errors, ...effects };
  }
}

export function nixtlaAnswerReply({ id, raw, bands, job }: NixtlaAnswerJob): NixtlaAnswerReply {
  try {
    const parsed = JSON.parse(decoder.decode(raw));
    if (!job) return { id, body: encoder.encode(JSON.stringify(forecastAnswer(parsed, bands))) };
    return { id, body: encoder.encode(JSON.stringify(forecastJobAnswer(parsed))), model: parsed.model };
  } catch (error) {
    return { id, error: { message: (error as Error).message } };
  }
}
