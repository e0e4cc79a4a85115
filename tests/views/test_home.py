from scorekeeper.models import Group


def test_the_home_page_says_what_scorekeeper_is(en, db):
    response = en.get("/")
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" in body
    assert "Knock Dummy (ดัมมี่น็อก)" in body


def test_a_group_is_created_and_its_page_offers_a_night(en, db):
    response = en.post("/groups/new", {"name": "  Saturday table ", "host_name": " Ann "})
    group = Group.objects.get()
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/"
    assert group.name == "Saturday table"
    assert str(group.owner) == "Ann"  # the others know the creator by name, not "host 1"
    page = en.get(response.url).content.decode()
    assert f"/g/{group.pk}/sessions/new" in page


def test_a_group_without_a_name_is_refused_and_nothing_is_created(en, db):
    response = en.post("/groups/new", {"name": ""})
    assert response.status_code == 422
    assert "This field is required" in response.content.decode()
    assert Group.objects.count() == 0


def test_the_creator_of_a_group_is_asked_their_name(en, db):
    response = en.post("/groups/new", {"name": "Saturday table", "host_name": "  "})
    assert response.status_code == 422
    assert "Give the name the others know you by." in response.content.decode()
    invisible = en.post("/groups/new", {"name": "Saturday table", "host_name": " \u200b "})
    assert invisible.status_code == 422
    assert "This name has nothing visible in it" in invisible.content.decode()
    assert Group.objects.count() == 0


def test_an_unknown_group_is_not_found(en, db):
    assert en.get("/g/999/").status_code == 404


def test_the_thai_home_page_writes_the_rules_edition_as_a_thai_reader_reads_the_year(client, db):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="th").content.decode()
    assert "ชมรมดัมมี่ปี 2568" in body  # the Buddhist Era year, as every other date here
    assert "2025" not in body
