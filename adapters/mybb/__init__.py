"""MyBB 1.8: the adapter (`forum`) and its markup as data (`profile`), over the shared HTML base."""
