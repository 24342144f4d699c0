#!/usr/bin/env python3
"""Refreshes the terminal transcripts in Docs/Examples.md from real runs.

Every ```console block is replayed the way Tests/ExamplesTests/TranscriptTests.swift replays
it: in a fresh temporary folder, with the built programs first on PATH, a private HOME and
XDG_DATA_HOME, standard error merged into standard output, "(exit status N)" after a
command that fails, and `export NAME=value` setting a variable for the rest of the block. The outputs in the page are replaced by what the programs print, except
an output that holds a "…" line (an elision made by hand), which is kept as written and named
on standard error so it can be checked by eye.

Run it after `swift build` from the package's root:

    swift build && python3 Scripts/update-transcripts.py
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "Docs", "Examples.md")
PRODUCTS = os.path.join(ROOT, ".build", "debug")


def run_block(commands):
    """Runs a block's commands in one fresh folder; returns each command's output lines."""
    outputs = []
    with tempfile.TemporaryDirectory(prefix="transcripts") as folder:
        environment = {
            "PATH": PRODUCTS + ":/usr/bin:/bin",
            "HOME": os.path.join(folder, "home"),
            "XDG_DATA_HOME": os.path.join(folder, "data"),
            "LANG": "C.UTF-8",
            "TZ": "UTC",
        }
        for command in commands:
            if command.startswith("export ") and "=" in command:
                name, value = command[len("export "):].split("=", 1)
                environment[name] = value
                outputs.append([])
                continue
            done = subprocess.run(
                ["/bin/sh", "-c", "exec 2>&1; " + command],
                cwd=folder, env=environment, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
            lines = done.stdout.decode("utf-8").split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            if done.returncode != 0:
                lines.append("(exit status %d)" % done.returncode)
            outputs.append(lines)
    return outputs


def main():
    with open(PAGE, encoding="utf-8") as page:
        lines = page.read().split("\n")
    result = []
    index = 0
    while index < len(lines):
        result.append(lines[index])
        if lines[index] != "```console":
            index += 1
            continue
        index += 1
        steps = []
        while index < len(lines) and lines[index] != "```":
            if lines[index].startswith("$ "):
                steps.append([lines[index], []])
            elif steps:
                steps[-1][1].append(lines[index])
            index += 1
        outputs = run_block([step[0][2:] for step in steps])
        for (command, old), new in zip(steps, outputs):
            result.append(command)
            if any(line.strip().startswith("…") for line in old):
                print("kept by hand: " + command, file=sys.stderr)
                result.extend(old)
            else:
                result.extend(new)
    with open(PAGE, "w", encoding="utf-8") as page:
        page.write("\n".join(result))


if __name__ == "__main__":
    main()
