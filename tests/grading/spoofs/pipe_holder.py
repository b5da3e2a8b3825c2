# Children that keep the kernel's stdout and stderr open (a double fork, so nobody reaps them).
import os, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "obcd-spoof-pipe"],
                 stdout=sys.__stdout__, stderr=sys.__stderr__, start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "obcd-spoof-pipe"])
    os._exit(0)
