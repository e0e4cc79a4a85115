"""The installable app: manifest, service worker, offline page."""

import json

from django.contrib.staticfiles import finders
from django.utils.html import escapejs

SCRIPTS = ["queue.js", "warm.js", "sign-out.js", "live.js", "end-of-game.js", "share.js", "undo.js"]


def test_the_manifest_makes_the_app_installable(client, db):
    response = client.get("/manifest.webmanifest")
    manifest = json.loads(response.content)
    assert response["Content-Type"].startswith("application/manifest+json")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")) is not None


def test_the_service_worker_is_served_from_the_root_and_caches_the_shell(client, db):
    response = client.get("/sw.js")
    body = response.content.decode()
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert '"/static/css/app.css"' in body
    for script in SCRIPTS:
        assert f'"{escapejs(f"/static/js/{script}")}"' in body
    assert 'const OFFLINE = "/offline"' in body


def test_every_page_links_the_manifest_and_the_page_scripts_under_the_csp(client, db):
    response = client.get("/")
    body = response.content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    nonce = response["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    for script in SCRIPTS:
        assert f'<script src="/static/js/{script}" defer nonce="{nonce}">' in body
    assert 'id="offline"' in body and "hidden" in body.split('id="offline"')[1][:40]


def test_the_offline_page_explains_what_still_works(client, db):
    body = client.get("/offline", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Pages you have opened are kept" in body
