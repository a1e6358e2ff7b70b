"""What the solver keeps on disk: users' files read and written safely, the cache of shoe-independent
arrays, and numba's cache of compiled kernels (docs/design.md, "Layers").

* :mod:`.files` — text read in UTF-8, files written whole or not at all, never overwritten unasked;
* :mod:`.cache` — the deal trees and their groupings, checked by a CRC and keyed by the code's digest;
* :mod:`.jitcache` — numba's on-disk kernels, dropped when the code compiled into them changes.
"""
