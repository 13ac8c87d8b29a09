"""The peak resident memory of the current process, for tests that measure a run in a child process."""


def peak_mb() -> float:
    """``VmHWM`` from /proc/self/status, in MB (Linux): the peak since the process started, so a child
    process started for one run measures that run alone."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")
