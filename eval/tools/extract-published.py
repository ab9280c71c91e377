"""Writes eval/published.ts: the published scores the harness prints beside ours.

Run once by hand against read-only mirrors of the three public result repositories (the paths and
commits are the ones in shared/research/data.md; any checkout of those commits works):

    python3 eval/tools/extract-published.py \
        --fev /path/to/autogluon/fev --chronos /path/to/amazon-science/chronos-forecasting \
        --gift /path/to/SalesforceAIResearch/gift-eval > eval/published.ts

Each path is a git directory (bare mirror or checkout); files are read with `git show <commit>:<path>`.
Values are rounded to 4 decimals (the precision data.md quotes); GIFT-Eval's statistical rows are
published with 3 significant digits only.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import subprocess

FEV_COMMIT = "1bc95fd779b3bbfccd85c91178e56075d8fc2e45"
CHRONOS_COMMIT = "95185d1336e5bfdf50374d44c06ad9e10b303144"
GIFT_COMMIT = "4fd98a9f803a0266f062737281555ddcd220bf81"

# our dataset key -> name in fev / the Chronos repo (same task names)
MONASH = {
    "m1-yearly": "monash_m1_yearly", "m1-quarterly": "monash_m1_quarterly", "m1-monthly": "monash_m1_monthly",
    "m3-yearly": "monash_m3_yearly", "m3-quarterly": "monash_m3_quarterly", "m3-monthly": "monash_m3_monthly",
    "tourism-yearly": "monash_tourism_yearly", "tourism-quarterly": "monash_tourism_quarterly",
    "tourism-monthly": "monash_tourism_monthly",
    "nn5-daily": "nn5", "nn5-weekly": "monash_nn5_weekly", "hospital": "monash_hospital", "etth": "ETTh",
}
CHRONOS_M4 = {"m4-hourly": "m4_hourly", "m4-weekly": "m4_weekly"}
GIFT = {"m4-hourly": "m4_hourly/H/short", "m4-weekly": "m4_weekly/W/short", "hospital": "hospital/M/short"}

# fev chronos_zeroshot result file -> our model key (id or id:size)
FEV_MODELS = {
    "seasonal_naive": "seasonal-naive", "auto_arima": "auto-arima", "auto_ets": "auto-ets",
    "auto_theta": "auto-theta", "timesfm": "timesfm:200m", "tirex": "tirex",
}
# Chronos repo result prefix -> our model key (chronos = Chronos-T5; the catalog has no t5 "mini")
CHRONOS_MODELS = {
    "chronos-t5-tiny": "chronos:tiny", "chronos-t5-small": "chronos:small", "chronos-t5-base": "chronos:base",
    "chronos-t5-large": "chronos:large", "chronos-bolt-tiny": "chronos-bolt:tiny",
    "chronos-bolt-mini": "chronos-bolt:mini", "chronos-bolt-small": "chronos-bolt:small",
    "chronos-bolt-base": "chronos-bolt:base",
}
# GIFT-Eval results dir -> (our model key, note)
GIFT_MODELS = {
    "seasonal_naive": ("seasonal-naive", None), "naive": ("naive", None),
    "auto_arima": ("auto-arima", None), "auto_ets": ("auto-ets", None), "auto_theta": ("auto-theta", None),
    "chronos-2": ("chronos-2:base", None),
    "timesfm": ("timesfm:200m", None),
    "TimesFM-2.5": ("timesfm-2:200m", None),
    "Moirai2": ("moirai-2:small", None),
    "TiRex": ("tirex", "GIFT-Eval ran the TiRex-1.1-gifteval checkpoint, not NX-AI/TiRex"),
    "tabpfn_ts": ("tabpfn-ts", "GIFT-Eval ran TabPFN-TS (v2); the catalog's tabpfn-ts is tabpfn-v3-ts"),
    "Toto-2.0-2.5B": ("toto-2:2.5b", None),
    "Toto-2.0-2.5B-FT": ("toto-2-ft:2.5b", None),
}


def show(repo: str, commit: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def git_dir(path: str) -> str:
    out = subprocess.run(["git", "-C", path, "rev-parse", "--git-dir"], check=True, capture_output=True, text=True)
    gd = out.stdout.strip()
    return gd if gd.startswith("/") else f"{path.rstrip('/')}/{gd}"


def r4(x: str | float) -> float:
    return round(float(x), 4)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fev", required=True)
    ap.add_argument("--chronos", required=True)
    ap.add_argument("--gift", required=True)
    args = ap.parse_args()
    fev, chronos, gift = git_dir(args.fev), git_dir(args.chronos), git_dir(args.gift)

    table: dict[str, dict[str, list[dict]]] = {}

    def add(dataset: str, model: str, entry: dict) -> None:
        table.setdefault(dataset, {}).setdefault(model, []).append(entry)

    # --- M4 Hourly / Weekly: GIFT-Eval (official M4 split) and the Chronos repo (in-domain) ---
    for name, (model, note) in GIFT_MODELS.items():
        config = show(gift, GIFT_COMMIT, f"results/{name}/config.json")
        leak = '"testdata_leakage": "Yes"' in config.replace("'", '"')
        rows = list(csv.DictReader(io.StringIO(show(gift, GIFT_COMMIT, f"results/{name}/all_results.csv"))))
        for dataset, gname in GIFT.items():
            hit = [r for r in rows if r["dataset"] == gname]
            if not hit:
                continue
            r = hit[0]
            entry = {
                "mase": r4(r["eval_metrics/MASE[0.5]"]),
                "smape": round(float(r["eval_metrics/sMAPE[0.5]"]) * 100, 3),
                "wql": r4(r["eval_metrics/mean_weighted_sum_quantile_loss"]),
                "nd": r4(r["eval_metrics/ND[0.5]"]),
                "source": f"GIFT-Eval {name}",
            }
            if leak:
                entry["leak"] = True
            if note:
                entry["note"] = note
            add(dataset, model, entry)

    for prefix, model in CHRONOS_MODELS.items():
        for split in ("in-domain", "zero-shot"):
            rows = list(csv.DictReader(io.StringIO(show(chronos, CHRONOS_COMMIT, f"scripts/evaluation/results/{prefix}-{split}.csv"))))
            for r in rows:
                dataset = next((k for k, v in {**CHRONOS_M4, **MONASH}.items() if v == r["dataset"]), None)
                if dataset is None:
                    continue
                entry = {"mase": r4(r["MASE"]), "wql": r4(r["WQL"]), "source": f"Chronos repo {prefix} ({split})"}
                if split == "in-domain":
                    entry["leak"] = True
                if dataset == "nn5-daily":
                    entry["note"] = "published task 'nn5' is another NN5 variant than our file: not comparable 1:1"
                add(dataset, model, entry)

    for name, model in FEV_MODELS.items():
        rows = list(csv.DictReader(io.StringIO(show(fev, FEV_COMMIT, f"benchmarks/chronos_zeroshot/results/{name}.csv"))))
        for r in rows:
            dataset = next((k for k, v in MONASH.items() if v == r["task_name"]), None)
            if dataset is None:
                continue
            entry: dict = {"mase": r4(r["MASE"]), "source": f"fev chronos_zeroshot {name}"}
            if name == "seasonal_naive":
                # gluonts SeasonalNaivePredictor: every quantile is the point forecast, so fev's "WQL"
                # of this row is sum|y - yhat| / sum|y| (ND)
                entry["nd"] = r4(r["WQL"])
            else:
                entry["wql"] = r4(r["WQL"])
            if r.get("trained_on_this_dataset") == "True":
                entry["leak"] = True
            if dataset == "nn5-daily":
                entry["note"] = "published task 'nn5' is another NN5 variant than our file: not comparable 1:1"
            entry["fev_inference_s"] = round(float(r["inference_time_s"]), 1) if r.get("inference_time_s") else None
            add(dataset, model, entry)
            if name == "seasonal_naive" and r["seasonality"] == "1":
                # with m = 1 the seasonal naive forecast is the naive one: the same published number
                add(dataset, "naive", {**{k: v for k, v in entry.items() if k != "fev_inference_s"}, "source": "fev chronos_zeroshot seasonal_naive (m = 1: = naive)"})

    # order: primary source first (fev for the Monash sets, GIFT-Eval for M4), then the others
    def rank(dataset: str, entry: dict) -> int:
        s = entry["source"]
        if dataset.startswith("m4-"):
            return 0 if s.startswith("GIFT") else 1
        return 0 if s.startswith("fev") else 1 if s.startswith("Chronos") else 2

    out = []
    out.append("// GENERATED by eval/tools/extract-published.py from public result files; do not edit by hand.")
    out.append(f"// fev: autogluon/fev@{FEV_COMMIT} benchmarks/chronos_zeroshot/results/*.csv (fev 0.6.0, statsforecast 2.0.0)")
    out.append(f"// Chronos repo: amazon-science/chronos-forecasting@{CHRONOS_COMMIT} scripts/evaluation/results/*.csv")
    out.append(f"// GIFT-Eval: SalesforceAIResearch/gift-eval@{GIFT_COMMIT} results/*/all_results.csv (sMAPE x100 = %)")
    out.append("// Keys: our dataset key -> our model key (`id` or `id:size`) -> published rows, primary source first.")
    out.append("// wql = WQL over 0.1..0.9 of the model's own quantiles; nd = sum|y - yhat| / sum|y| (what a")
    out.append("// point-only 'WQL' equals); leak = the model saw this dataset in training (in-domain / flagged).")
    out.append("")
    out.append("export interface PublishedScore {")
    out.append("  mase?: number;")
    out.append("  /** percent, as in M4 */")
    out.append("  smape?: number;")
    out.append("  wql?: number;")
    out.append("  nd?: number;")
    out.append("  source: string;")
    out.append("  leak?: boolean;")
    out.append("  note?: string;")
    out.append("  /** fev's recorded inference time of the whole task (16 vCPU ml.m6i.4xlarge, n_jobs=-1), seconds */")
    out.append("  fev_inference_s?: number | null;")
    out.append("}")
    out.append("")
    out.append("export const PUBLISHED: Record<string, Record<string, PublishedScore[]>> = {")
    for dataset in sorted(table):
        out.append(f"  '{dataset}': {{")
        for model in sorted(table[dataset]):
            entries = sorted(table[dataset][model], key=lambda e: rank(dataset, e))
            out.append(f"    '{model}': [")
            for e in entries:
                parts = []
                for k in ("mase", "smape", "wql", "nd", "source", "leak", "note", "fev_inference_s"):
                    if k in e and e[k] is not None:
                        v = e[k]
                        if isinstance(v, bool):
                            parts.append(f"{k}: {'true' if v else 'false'}")
                        elif isinstance(v, str):
                            parts.append(f"{k}: {json.dumps(v)}")
                        else:
                            parts.append(f"{k}: {v}")
                out.append("      { " + ", ".join(parts) + " },")
            out.append("    ],")
        out.append("  },")
    out.append("};")
    print("\n".join(out))


if __name__ == "__main__":
    main()
