// The Nixtla SDK's large forecasts in a forecast thread (issue 32; the loop's side: large-bodies.ts). A payload
// of HORIZON_REQUEST_THREAD_MIN_BYTES or more is parsed, validated against the route's schema and translated
// into POST /v1/forecast's body here — forecast.ts's forecastRequest itself, every 422 at once — and that body
// goes back as JSON bytes; a large /v1 answer comes back here to become the SDK's. The same functions as on the
// event loop, so the same bytes and errors (test/nixtla.large-bodies.test.ts).
import secureJson from 'secure-json-parse';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HorizonError, type FieldError } from '../../errors.ts';
import { ModelRegistry, type RegistrySnapshot } from '../../runtime/models.ts';
import { runInContext } from '../request-context.ts';
import { bodyValidator } from '../body-validator.ts';
import { fieldErrorsFromAjv } from '../validation-errors.ts';
import { NixtlaForecastRequest } from './schemas.ts';
import { forecastAnswer, forecastJobAnswer, type LevelBand } from './translate.ts';
import { forecastRequest, type ForecastBody } from './forecast.ts';
import type { NixtlaContext } from './common.ts';

/** What the translation reads of the deployment: the registry as it is now (rebuilt here from its snapshot, so
 * that every registry method the translation calls answers as on the loop), the settings, the caller's private
 * models (the request context's: the catalog and x-horizon-model name them). */
export interface NixtlaThreadContext {
  registry: RegistrySnapshot; config: NixtlaContext['config']; nixtlaDefaultModel: string; privateModels: object[];
}
/** A payload as bytes; `job`: submitted as an async job (POST /v1/forecast-jobs). */
export interface NixtlaForecastJob { id: number; kind: 'nixtla-forecast'; bytes: Uint8Array; job: boolean; context: NixtlaThreadContext }
/** What the translation did to the request (log fields) and its answer (headers), applied by the loop in either outcome. */
interface Effects { logFields: Record<string, unknown>; headers: Record<string, string> }
export type NixtlaForecastReply =
  /** `body`: POST /v1/forecast's body as JSON */
  | ({ id: number; kind: 'translated'; body: Uint8Array; bands: LevelBand[] } & Effects)
  /** the translation failed other than with a HorizonError (it read something this thread does not have): the loop translates */
  | { id: number; kind: 'fallback' }
  | { id: number; kind: 'bad_json' }
  | { id: number; kind: 'invalid'; errors: FieldError[] }
  | ({ id: number; kind: 'failed'; code?: string; message: string; errors?: FieldError[] } & Effects);
/** A large /v1 answer (its bytes): a forecast's (with the request's bands), or a forecast job's (`job`). */
export interface NixtlaAnswerJob { id: number; kind: 'nixtla-answer'; raw: Uint8Array; bands?: LevelBand[]; job?: boolean }
export type NixtlaAnswerReply = { id: number; body: Uint8Array; model?: string } | { id: number; error: { message: string } };

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
