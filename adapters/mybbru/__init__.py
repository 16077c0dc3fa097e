"""mybb.ru / rusff (hosted PunBB): the adapter (`forum`) and its markup as data (`profile`), over PunBB's."""
