"""A group's ledger as CSV for people, and the whole group as versioned JSON to move or restore.

The JSON names players by name and links rows by their position in the export, never by database
id, so it imports into an empty instance and exports again unchanged. Devices, invites, accounts,
idempotency keys and join attempts stay behind: they belong to the instance, not to the group.

One module per job: csv (written only), file (the JSON entry points, which write and read every
part in order), one module per part of the file with its `dump_…` beside its `load_…` (group,
nights, games, transfers, costs, lines, money, tabs, audit), fields (one field's writer and
strict readers), upgrade (versions 1 to 3 read as today's) and snapshot (what every export reads
from).
"""

from scorekeeper.services.exports.csv import CSV_HEADER, group_csv, night_csv
from scorekeeper.services.exports.file import FORMAT, group_import, group_json, night_json
from scorekeeper.services.exports.upgrade import VERSION

__all__ = [
    "CSV_HEADER",
    "FORMAT",
    "VERSION",
    "group_csv",
    "group_import",
    "group_json",
    "night_csv",
    "night_json",
]
