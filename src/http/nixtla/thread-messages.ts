// The messages between the event loop (large-bodies.ts) and a forecast thread (thread.ts) for the Nixtla SDK's
// large forecasts. A module of their own: thread.ts runs forecast.ts's translation, and forecast.ts sends its
// large payloads through large-bodies.ts, so large-bodies.ts taking these types from thread.ts made a circle.
import type { FieldError } from '../../errors.ts';
import type { RegistrySnapshot } from '../../runtime/models.ts';
import type { LevelBand } from './translate.ts';
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
export interface Effects { logFields: Record<string, unknown>; headers: Record<string, string> }
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
