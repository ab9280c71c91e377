// cross_validation(finetune_steps=N): TimeGPT fine-tunes on each window's history before forecasting it. Horizon's
// cross-validation calls a model once for every window; a fine-tuned window is POST /v1/forecast with finetune_steps
// (inline fine-tuning: nothing kept) on the history before its cutoff, one call per window position, one after the
// other (each takes a fine-tuning slot). The windows, their cutoffs and what is left out are POST
// /v1/cross-validation's (src/forecasting/cross-validation.ts); each call is charged as that forecast is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { validationError, type FieldError } from '../../errors.ts';
import { truncate } from '../../forecasting/cross-validation.ts';
import type { InputSeries } from '../../forecasting/normalize.ts';
import { callHorizon } from './common.ts';

export interface FineTunedCrossValidation {
  series: InputSeries[]; horizon: number; freq: string; model: string; n_windows: number; step: number; quantiles: number[];
  finetune_steps: number; finetune_mode: 'lora' | 'full';
}

type Prediction = Record<string, (number | null)[]>;

/** Per window position (0 = latest), the series that have that window and its cutoff, as /v1/cross-validation keeps them;
 * a 422 for a window whose history is too short to fine-tune on (2 × h: a context and a target). */
function windowsOf(call: FineTunedCrossValidation): { i: number; cutoff: number }[][] {
  const errors: FieldError[] = [];
  const positions = Array.from({ length: call.n_windows }, (_, w) => call.series.flatMap((s, i) => {
    const cutoff = s.target.length - call.horizon - w * call.step;
    if (cutoff < 1 || s.target.slice(cutoff, cutoff + call.horizon).some((v) => v === null) || !s.target.slice(0, cutoff).some((v) => v !== null)) return [];
    if (cutoff < 2 * call.horizon) {
      const fix = 'fewer n_windows, or a smaller h or step_size';
      const short = `window ${w} has ${cutoff} values before its cutoff; fine-tuning for h ${call.horizon} needs ${2 * call.horizon}`;
      errors.push({ series: i, field: `series[${i}].y`, reason: `${short} (${fix})` });
    }
    return [{ i, cutoff }];
  }));
  if (errors.length) throw validationError(errors.slice(0, 5));
  return positions;
}

/** The windows, fine-tuned one position at a time: POST /v1/cross-validation's answer shape (one model). */
export async function fineTunedCrossValidation(app: App, request: FastifyRequest, reply: FastifyReply, call: FineTunedCrossValidation) {
  const windows: { cutoff: number; prediction: Prediction }[][] = call.series.map(() => []);
  const warnings: unknown[] = [];
  let model = call.model;
  for (const members of windowsOf(call)) {
    if (!members.length) continue;
    const body = {
      series: members.map(({ i, cutoff }) => truncate(call.series[i], cutoff, call.horizon)), horizon: call.horizon, freq: call.freq, model: call.model,
      quantiles: call.quantiles, finetune_steps: call.finetune_steps, finetune_mode: call.finetune_mode,
    };
    const { body: answer } = await callHorizon(app, request, reply, 'POST', '/v1/forecast', body);
    model = answer.model;
    members.forEach(({ i, cutoff }, j) => windows[i].push({ cutoff, prediction: answer.series[j][0].prediction }));
    // a forecast's warning names the window's position in this call: the series' own, as the SDK sent it
    for (const w of (answer.warnings ?? []) as { series?: number; field: string; message: string }[]) {
      const i = w.series === undefined ? undefined : members[w.series]?.i;
      if (i === undefined) { warnings.push(w); continue; }
      const field = w.field.replace(/^series\[\d+\]/, `series[${i}]`);
      warnings.push({ ...w, series: i, field, message: `window at ${members[w.series!].cutoff}: ${w.message}` });
    }
  }
  return { models: [{ model, series: windows.map((w) => ({ windows: w })) }], warnings };
}
