"""A NUL character in an address: a friendly 404 or a cleaned query, never PostgreSQL's DataError (a 500)."""

from __future__ import annotations

import pytest
from django.http import Http404, HttpResponse
from django.test import RequestFactory

from config.middleware import RefuseNulCharacters


@pytest.mark.parametrize("path", ["/e/{slug}/players/%00/", "/e/{slug}/players/p1%00/", "/e/%00/"])
def test_an_address_holding_nul_is_no_page(client, demo_event, path):
    response = client.get(path.format(slug=demo_event.slug), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 404
    assert "没有这个页面" in response.content.decode()  # the site's 404 page, in the reader's language


def test_nul_is_dropped_from_the_query_before_any_view_reads_it():
    seen = {}

    def view(request):
        seen.update({key: request.GET.getlist(key) for key in request.GET})
        return HttpResponse("ok")

    request = RequestFactory().get("/e/x/find/", {"q": ["a\x00b", "c"], "k\x00": "v"})
    assert RefuseNulCharacters(view)(request).status_code == 200
    assert seen == {"q": ["ab", "c"], "k": ["v"]}


def test_a_path_holding_nul_raises_not_found_for_the_sites_404_page():
    request = RequestFactory().get("/e/x/players/%00/")
    with pytest.raises(Http404):
        RefuseNulCharacters(lambda r: HttpResponse("ok"))(request)
