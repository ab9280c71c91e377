// Types of data.js for its TypeScript users (src/cli/forecast.ts); the browser loads data.js as is.
export class CsvError extends Error {}
export interface CsvDate { date: string; time: string | null }
export interface ParsedCsv { names: string[]; dates: CsvDate[]; columns: (number | null)[][]; decimals: number[] }
export function parseCsv(text: string): ParsedCsv;
export function inferFreq(dates: CsvDate[]): 'H' | 'D' | 'W' | 'MS' | 'Q' | 'Y' | null;
export function apiIndex(dates: CsvDate[], freq: string): string[];
export const DEFAULT_HORIZON: Record<string, number>;
export function parseQuantiles(text: string): number[];
export function roundToData(value: number, decimals: number): string;
export function levelsOf(prediction: Record<string, number[]>): string[];
export function forecastCsv(names: string[], response: { series: { index: string[]; prediction: Record<string, number[]> }[][] }): string;
export function formFieldOf(field: string): string;
