"""``python -m hipporag ARGS``: the ``hipporag`` binary with ARGS."""

import os
import subprocess
import sys

from ._binary import HipporagError, find_binary


def main() -> int:
    try:
        binary = find_binary()
    except HipporagError as e:
        print(f"hipporag: {e}", file=sys.stderr)
        return 1
    if os.name == "posix":
        os.execv(binary, [binary, *sys.argv[1:]])
    return subprocess.call([binary, *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
