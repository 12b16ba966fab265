"""An error's message is its own call's even while another thread fails at the same time:
the binding reads it from the handle or from the seen_error the call filled, never from state
that another call on the same OS thread could overwrite."""
import threading

import seen

ROUNDS = 2000


def fail_repeatedly(make_failure, expected, wrong):
    for _ in range(ROUNDS):
        try:
            make_failure()
        except seen.SeenError as e:
            if expected not in e.detail:
                wrong.append(e.detail)
        else:
            wrong.append("no error")


def merge_mismatched(small, large):
    small |= large


def test_messages_stay_with_their_calls_under_concurrent_failures():
    window = seen.Window.last_items(100)
    small, large = seen.BloomFilter(1000, 0.01), seen.BloomFilter(100000, 0.01)
    failures = [
        # Calls without a handle: each message comes from its own thread's seen_error.
        (lambda: seen.BloomFilter(100, 3.0), "got 3"),
        (lambda: seen.BloomFilter(100, 5.0), "got 5"),
        # Calls on handles: each message comes from its handle.
        (lambda: window.add(1, now=2**40), "now is past 2^32"),
        (lambda: merge_mismatched(small, large), "block count differs"),
    ]
    wrong = []
    threads = [threading.Thread(target=fail_repeatedly, args=(f, text, wrong)) for f, text in failures]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
