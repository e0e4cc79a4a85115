def test_the_home_page_says_what_scorekeeper_is_in_thai_and_english(client):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" in body
    assert "ดัมมี่น็อก" in body
    assert "Knock Dummy" in body
