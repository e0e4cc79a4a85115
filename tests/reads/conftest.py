"""The reads are tested on nights the services wrote: the services' night at the table."""

from tests.services.conftest import table

__all__ = ["table"]
