"""Where every benchmark's data comes from: one resolver, one error type.

(Being filled in: see ``fetch``.)
"""

from __future__ import annotations

from cog_tasks.common.files import DataFileError


class DataSourceError(DataFileError):
    """Benchmark data that cannot be fetched or fails its checks.

    The message names the source (file, folder or URL) and the ways out.
    """
