"""PunBB / FluxBB 1.5: the adapter (`forum`) and its markup as data (`profile`), over the shared HTML base;
the base of the hosted mybb.ru engine."""
