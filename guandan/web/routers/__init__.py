"""The API's routes by concern: ``games`` (play), ``records`` (results, export), ``outside``
(outside programs' seats), ``pages`` (the page, its catalogs, the health check)."""
