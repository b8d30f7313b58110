"""The API's routes by concern: ``games`` (play), ``records`` (results, export), ``pages``
(the page, its catalogs, the health check)."""
