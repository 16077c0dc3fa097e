"""XenForo 2: the HTML adapter (`forum`), its conversations (`pms`), the REST API flows (`api`) and the markup
as data (`profile`)."""
