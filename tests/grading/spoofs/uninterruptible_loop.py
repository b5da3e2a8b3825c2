# A cell that ignores the interrupt and loops forever: only the wall-clock budget stops it.
import signal
signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    pass
