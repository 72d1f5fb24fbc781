#!/usr/bin/env python3
"""Summarises an Nsight Compute source page (ncu --page source --csv --print-source sass):
instructions executed, warp-stall samples by reason, and the SASS lines that hold the most
samples or run the most often (the pair loop). bench/device_forces_profile.sh writes the page.

usage: ncu_stalls.py forces_source.csv [--lines N]
"""
import argparse
import csv


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("--lines", type=int, default=25, help="SASS lines to list (most samples)")
    args = parser.parse_args()
    rows = list(csv.reader(open(args.page)))
    header_at = next(k for k, r in enumerate(rows) if r and r[0] == "Address")
    header = rows[header_at]
    col = {name: k for k, name in enumerate(header)}
    data = []
    for r in rows[header_at + 1:]:
        if not r or r[0] in ("Kernel Name", "Address"):
            break  # the next kernel's page
        data.append(r)

    def number(r, name):
        return int(r[col[name]] or 0)

    executed = sum(number(r, "Instructions Executed") for r in data)
    samples = sum(number(r, "Warp Stall Sampling (All Samples)") for r in data)
    print(f"warp instructions executed: {executed:,}; stall samples: {samples:,}")
    reasons = [n for n in header if n.startswith("stall_") and "Not Issued" not in n]
    share = {n: sum(number(r, n) for r in data) / max(samples, 1) for n in reasons}
    print("stall reasons: " + ", ".join(f"{n[6:]} {100 * v:.1f} %"
                                        for n, v in sorted(share.items(), key=lambda x: -x[1])[:9]))
    busiest = sorted(data, key=lambda r: -number(r, "Warp Stall Sampling (All Samples)"))
    print(f"\n{'address':>8}  {'SASS':<52} {'executed':>11} {'samples':>8} {'threads':>7}")
    for r in busiest[:args.lines]:
        print(f"{r[col['Address']][-6:]:>8}  {r[col['Source']].strip()[:52]:<52} "
              f"{number(r, 'Instructions Executed'):>11,} "
              f"{number(r, 'Warp Stall Sampling (All Samples)'):>8,} "
              f"{r[col['Avg. Threads Executed']]:>7}")


if __name__ == "__main__":
    main()
