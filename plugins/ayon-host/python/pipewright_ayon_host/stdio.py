"""Keep stdout for frames alone: whatever else writes to it (an addon's print, a C library, a child process)
must land in the log instead."""

import os
import sys
from typing import BinaryIO


def take_stdout_for_frames() -> BinaryIO:
    """A private binary handle on the real stdout; afterwards file descriptor 1 and `sys.stdout` both write to
    stderr. Call before any addon code runs."""
    sys.stdout.flush()
    frames = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # anything writing to fd 1 from now on (child processes included) writes to stderr
    sys.stdout = sys.stderr
    return frames
