"""Run every benchmark in bench/ in turn (make bench)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    status = 0
    for script in sorted(HERE.glob("*.py")):
        if script.name == "run_all.py":
            continue
        print(f"== {script.name} ==", flush=True)
        status |= subprocess.call([sys.executable, "-W", "ignore", str(script), *sys.argv[1:]])
    sys.exit(status)
