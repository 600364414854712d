#!/usr/bin/env python3
"""Whole-process timing, A and B in turn: one warm-up run of each, then RUNS
pairs A B A B ...; prints the median wall and CPU seconds and peak memory of
each command, and the median of the pair-by-pair wall ratios A/B, which holds
when a noisy machine's speed drifts between pairs.

    benches/paired.py [--allow-exit N] RUNS -- COMMAND_A [ARG ...] [--vs COMMAND_B [ARG ...]]

A run that exits above N (default 1: recount's "findings") stops the bench;
lychee says "broken links" with 2.

Standard library only (per-process CPU and peak memory from os.wait4)."""

import os
import statistics
import subprocess
import sys
import time


ALLOWED_EXIT = 1


def run(command):
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    # Exit 1 is recount's "findings"; anything past it is a failed run.
    if not 0 <= os.waitstatus_to_exitcode(status) <= ALLOWED_EXIT:
        sys.exit(f"{command[0]} exited {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    global ALLOWED_EXIT
    args = sys.argv[1:]
    if args[:1] == ["--allow-exit"] and len(args) > 1:
        ALLOWED_EXIT = int(args[1])
        args = args[2:]
    if len(args) < 3 or args[1] != "--":
        sys.exit(__doc__)
    runs = int(args[0])
    rest = args[2:]
    if "--vs" in rest:
        at = rest.index("--vs")
        commands = [rest[:at], rest[at + 1:]]
    else:
        commands = [rest]
    for command in commands:
        run(command)
    figures = [[] for _ in commands]
    for _ in range(runs):
        for i, command in enumerate(commands):
            figures[i].append(run(command))
    for name, got in zip("AB", figures):
        wall, cpu, peak = (statistics.median(f[k] for f in got) for k in range(3))
        print(f"{name}: wall {wall:.3f} s, cpu {cpu:.3f} s, peak {peak:.1f} MiB (median of {runs})")
    if len(figures) == 2:
        ratios = [a[0] / b[0] for a, b in zip(*figures)]
        print(f"A/B wall: {statistics.median(ratios):.3f} (median of {runs} pairs)")


if __name__ == "__main__":
    main()
