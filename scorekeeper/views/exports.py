"""Getting the data out: a night or a whole group as CSV (for a spreadsheet) or JSON."""

import json

from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from scorekeeper.http import HtmxHttpRequest
from scorekeeper.services import exports
from scorekeeper.views.access import group_for, night_for

BOM = "\ufeff"  # spreadsheet programs on Windows read UTF-8 (and so Thai) only after one


KINDS = ("csv", "json")


def _download(body: str, *, name: str, kind: str) -> HttpResponse:
    content_type = "text/csv; charset=utf-8" if kind == "csv" else "application/json"
    response = HttpResponse(BOM + body if kind == "csv" else body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    return response


@require_GET
def night_export(request: HtmxHttpRequest, night_id: int, kind: str) -> HttpResponse:
    night = night_for(request, night_id)
    if kind not in KINDS:
        raise Http404("CSV or JSON")
    name = f"scorekeeper-{timezone.localdate(night.started_at).isoformat()}-{night.pk}"
    if kind == "csv":
        return _download(exports.night_csv(night=night), name=name, kind=kind)
    body = json.dumps(exports.night_json(night=night), ensure_ascii=False, indent=1)
    return _download(body, name=name, kind="json")


@require_GET
def group_export(request: HtmxHttpRequest, group_id: int, kind: str) -> HttpResponse:
    group = group_for(request, group_id)
    if kind not in KINDS:
        raise Http404("CSV or JSON")
    name = f"scorekeeper-group-{group.pk}-{timezone.localdate().isoformat()}"
    if kind == "csv":
        return _download(exports.group_csv(group=group), name=name, kind=kind)
    body = json.dumps(exports.group_json(group=group), ensure_ascii=False, indent=1)
    return _download(body, name=name, kind="json")
