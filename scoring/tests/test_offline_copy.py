"""The referee's offline copies on a shared phone (scoring/offline_copy.py): each referee page says whose copy
it is, by an opaque per-user id, and until when their login lasts; the service worker keeps and shows pages
only under that id (static/js/referee-sw.js), and the logout form carries it with the warning about entries
not sent yet (static/js/offline-logout.js). Browser test: tests/browser/test_offline_entry.py."""

from __future__ import annotations

import re

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from scoring.offline_copy import HEADER, owner_id


def table_url(table):
    return reverse("referee:table", args=[table.round.tournament.slug, table.round.number, table.number])


def test_the_owner_id_is_per_user_and_tells_nothing(referee, stranger):
    assert owner_id(referee) == owner_id(referee)
    assert owner_id(referee) != owner_id(stranger)
    assert owner_id(AnonymousUser()) == ""
    assert re.fullmatch(r"[0-9a-f]{24}", owner_id(referee))
    assert owner_id(referee) != str(referee.pk)


def test_a_referee_page_says_whose_copy_it_is_and_until_when(client, table, referee):
    client.force_login(referee)
    for url in (table_url(table), reverse("referee:my_tables")):
        response = client.get(url)
        said = dict(part.split("=") for part in response[HEADER].split("; "))
        assert said["owner"] == owner_id(referee)
        assert said["owner"] not in client.cookies["sessionid"].value  # never the session cookie
        until = int(said["until"])
        assert until == int(client.session.get_expiry_date().timestamp())
        assert until > timezone.now().timestamp()


def test_no_copy_is_marked_for_nobody_nor_outside_the_referee_pages(client, table, referee):
    assert HEADER not in client.get(table_url(table))  # a redirect to the login
    client.force_login(referee)
    assert HEADER not in client.get(reverse("public:home"))
    assert HEADER not in client.get(reverse("referee:service_worker"))
    assert HEADER not in client.get(reverse("referee:manifest"))


def test_the_logout_form_carries_the_owner_and_the_warning(client, table, referee):
    client.force_login(referee)
    page = client.get(reverse("public:home")).content.decode()
    assert f'data-offline-owner="{owner_id(referee)}"' in page
    assert 'data-unsent="{n} hands not sent yet: log out anyway?"' in page
    assert 'data-unsent-entries-one="1 entry not sent yet: log out anyway?"' in page
    assert "offline-logout.js" in page
    with override("zh-hans"):
        page = client.get(reverse("public:home"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'data-unsent="还有{n}局尚未发送：仍要退出吗？"' in page


def test_the_worker_keeps_pages_only_under_their_owner(client):
    worker = client.get(reverse("referee:service_worker")).content.decode()
    assert HEADER in worker and '"referee-pages-v2:"' in worker
    assert "until" in worker  # no copy once the login has ended
