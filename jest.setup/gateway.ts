// gateway lane: the real app in this process; starting one on PGlite takes seconds on a loaded 2-core machine.
jest.setTimeout(60_000);
