# As many sleeping processes as the system allows (bounded by RLIMIT_NPROC in the sandbox).
import os, time
children = 0
for _ in range(100000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            os.execv("/bin/sleep", ["/bin/sleep", "611.4217"])
        finally:
            os._exit(0)
    children += 1
print("spoof-fork-bomb started", children)
