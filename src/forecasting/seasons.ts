// Which frequencies have seasons that most statistical models cannot fit: a question both model choices ask (auto adds
// mstl to its candidates there, prism drops its median prior there).
import type { Catalog, Freq } from '../runtime/catalog.ts';

/** the longest season statsforecast's ETS models (a longer one gets a non-seasonal fit) */
export const ETS_MAX_SEASON = 24;

/** Whether `freq` has several seasons (the catalog's MSTL seasons: hourly 24 and 168, daily 7 and 365) or one longer than
 * ETS_MAX_SEASON (weekly's 52): H, D and W in the shipped catalog. */
export function hasUnmodelledSeasons(catalog: Catalog, freq?: string): boolean {
  if (freq === undefined) return false;
  const seasons = catalog.mstl_season_lengths?.[freq as Freq] ?? [];
  return seasons.length > 1 || (catalog.season_length[freq as Freq] ?? 1) > ETS_MAX_SEASON;
}
