"""Invision Community 4: the adapter (`forum`) and its markup as data (`profile`), over the shared HTML base."""
