"""A night's share link: read-only, for whoever holds it, until the host revokes it."""

import secrets

from django.db import IntegrityError
from django.utils import timezone

from scorekeeper.models import Membership, Night, ShareLink
from scorekeeper.services.access import audit
from scorekeeper.services.nights import lock
from scorekeeper.services.writing import writing


def share_link_for(*, night: Night, actor: Membership | None = None) -> ShareLink:
    """The night's live share link, made the first time a member asks (audited once)."""
    live = night.share_links.filter(revoked_at__isnull=True).first()
    if live is not None:
        return live
    try:
        with writing():
            lock(night)  # two phones opening the summary at once make one link
            live = night.share_links.filter(revoked_at__isnull=True).first()
            if live is not None:
                return live
            link = ShareLink.objects.create(
                night=night, token=secrets.token_urlsafe(24), created_by=actor
            )
            audit(actor=actor, action="share-link-create", night=night)
            return link
    except IntegrityError:  # made by another phone between the look and the write
        return night.share_links.get(revoked_at__isnull=True)


@writing()
def share_link_revoke(*, link: ShareLink, actor: Membership | None = None) -> ShareLink:
    """Revoke the link: it answers nothing from now on; a new one can be made."""
    link = ShareLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        audit(actor=actor, action="share-link-revoke", night=link.night)
    return link
