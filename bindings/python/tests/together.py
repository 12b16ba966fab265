"""Running one function in several threads at once, for the thread-safety tests."""
import threading


def run_together(work, args):
    """Calls work(a) for every a of args, each in its own thread, all started before any is
    joined; returns once every thread has ended."""
    threads = [threading.Thread(target=work, args=(a,)) for a in args]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
