"""What the solver keeps on disk: users' files read and written safely, the cache of shoe-independent
arrays, and numba's cache of compiled kernels (docs/design.md, "Layers").

* :mod:`.files` — users' files read within bounds (regular files of a stated size; streams by lines of
  a bounded length) in UTF-8, and written whole or not at all, never overwritten unasked;
* :mod:`.documents` — JSON and TOML documents, their nesting and numbers bounded;
* :mod:`.cache` — the deal trees and their groupings, their header and data checked by a CRC, keyed by the code's digest;
* :mod:`.jitcache` — numba's on-disk kernels, dropped when the code compiled into them changes.
"""
