"""phpBB 3.2/3.3: the adapter (`forum`) and its markup as data (`profile`), over the shared HTML base."""
