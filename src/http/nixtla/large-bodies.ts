// The Nixtla SDK's large forecasts off the event loop (issue 32): the loop's side of thread.ts. A payload of
// HORIZON_REQUEST_THREAD_MIN_BYTES or more reaches POST /nixtla/v2/forecast and /nixtla/v2/forecast/async as
// bytes (LargeBody: the plugin installs large-forecast.ts's parser), is translated in a forecast thread, and
// its /v1 body goes to the /v1 route as those bytes, where a thread reads it again; a /v1 answer as large
// (a forecast, a forecast job's GET) is translated back in a thread. Here only what needs the loop: the
// registry's state in, the request's log fields and headers out, the errors rethrown as the loop's.
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import { HorizonError, validationError, type ErrorCode } from '../../errors.ts';
import { RequestValidationError } from '../../forecasting/normalize.ts';
import { currentRequest } from '../request-context.ts';
import type { LargeBody } from '../large-body.ts';
import type { LevelBand } from './translate.ts';
import type { NixtlaContext } from './common.ts';
import type { NixtlaAnswerJob, NixtlaAnswerReply, NixtlaForecastJob, NixtlaForecastReply } from './thread-messages.ts';

const bytesOf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** forecast.ts's forecastRequest for a payload left as bytes: POST /v1/forecast's body as JSON bytes (or, where
 * the thread could not translate it, the loop's own translation: `translate` with the parsed body). */
export async function forecastRequestInThread<T extends { horizon: unknown; bands: LevelBand[] }>(
  ctx: NixtlaContext, request: FastifyRequest, reply: FastifyReply, body: LargeBody, job: boolean, translate: (parsed: unknown) => T,
): Promise<{ horizon: Buffer | T['horizon']; bands: LevelBand[] }> {
  const privateModels = (currentRequest()?.privateModels ?? []) as object[];
  const context = { registry: ctx.registry.snapshot(), config: ctx.config, nixtlaDefaultModel: ctx.nixtlaDefaultModel, privateModels };
  const translation: Omit<NixtlaForecastJob, 'id'> = { kind: 'nixtla-forecast', bytes: body.bytes, job, context };
  const answer = await ctx.answerThreads!.run(translation) as NixtlaForecastReply;
  if (answer.kind === 'bad_json') throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  if (answer.kind === 'invalid') throw new RequestValidationError(answer.errors);
  if (answer.kind === 'fallback') return translate(JSON.parse(body.bytes.toString('utf8'))); // its schema is checked
  // what the translation noted on the request and set on the answer, before it failed or not; the request's log
  // line says where it was read, as /v1's do
  Object.assign(request.logFields, answer.logFields, { request: 'thread' });
  void reply.headers(answer.headers);
  if (answer.kind === 'failed') {
    if (answer.code === 'validation_failed' && answer.errors) throw validationError(answer.errors);
    throw answer.code ? new HorizonError(answer.code as ErrorCode, answer.message, { errors: answer.errors }) : new Error(answer.message);
  }
  return { horizon: bytesOf(answer.body), bands: answer.bands };
}

/** From how many bytes a /v1 answer is translated in a thread (callHorizon then leaves it as bytes); undefined: never. */
export function largeAnswerBytes(ctx: NixtlaContext): number | undefined {
  const min = ctx.config.requestThreadMinBytes ?? 0;
  return ctx.answerThreads && min > 0 ? min : undefined;
}

/** The SDK's answer, as JSON bytes, to a large /v1 answer: a forecast's (with the request's bands), or a forecast
 * job's (`job`: its model comes back too, for x-horizon-model). */
export async function answerInThread(
  ctx: NixtlaContext, request: FastifyRequest, raw: Buffer, bands?: LevelBand[], job = false,
): Promise<{ body: Buffer; model?: string }> {
  const answer = await ctx.answerThreads!.run({ kind: 'nixtla-answer', raw, bands, job } satisfies Omit<NixtlaAnswerJob, 'id'>) as NixtlaAnswerReply;
  if ('error' in answer) throw new Error(answer.error.message);
  Object.assign(request.logFields, { answer: 'thread' });
  return { body: bytesOf(answer.body), model: answer.model };
}
