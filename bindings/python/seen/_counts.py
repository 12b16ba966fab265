"""An estimated count (a double from C) as the int len() returns, the same in every binding
(tests/vectors/conformance.json): rounded half up, as Java's Math.round and Go's math.Round
do for counts, which are never negative; a count past 2**63 - 1, such as the infinite
estimate of a saturated filter, is 2**63 - 1 (Java's Long.MAX_VALUE)."""
import math

LARGEST = 2**63 - 1


def rounded_count(estimate: float) -> int:
    """estimate rounded half up, at most LARGEST. Not int(estimate): that truncates 9.6 to 9
    where Java and Go say 10."""
    if not estimate < LARGEST:
        return LARGEST
    whole = math.floor(estimate)
    return whole + (estimate - whole >= 0.5)
