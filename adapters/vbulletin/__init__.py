"""vBulletin 3.8/4.2: the adapter (`forum`) and its markup as data (`profile`), over the shared HTML base."""
