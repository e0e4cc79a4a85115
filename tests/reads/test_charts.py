"""Charts drawn on the server as SVG (reads.charts): names escaped, a real minus, the last date
inside the frame, one night a dot; a long run thinned to the points a chart draws."""

from scorekeeper.reads import charts


def test_thinning_keeps_the_first_and_last_points_and_at_most_so_many():
    labels = [str(n) for n in range(1, 1001)]
    kept, values = charts.thinned(labels, {"Ann": list(range(1000))}, most=120)
    assert len(kept) == len(values["Ann"]) == 120
    assert (kept[0], kept[-1]) == ("1", "1000")
    assert values["Ann"] == [int(label) - 1 for label in kept]
    assert charts.thinned(labels[:5], {"Ann": [1, 2, 3, 4, 5]}, most=120) == (
        labels[:5],
        {"Ann": [1, 2, 3, 4, 5]},
    )


def test_a_chart_escapes_names_and_scales_to_its_data():
    svg = charts.line_chart(
        charts.series({"<b>": [0, 100, -50]}), labels=["1", "2", "3"], title="t"
    )
    assert "<b>" not in svg.replace("<title>t</title>", "")
    assert "&lt;b&gt;" not in svg  # names live in the legend, not the drawing
    assert svg.count("<polyline") == 1
    assert ">100<" in svg and ">−50<" in svg


def test_a_chart_writes_a_real_minus_and_keeps_its_last_date_inside_the_frame():
    svg = charts.line_chart(
        charts.series({"Ann": [0, -2300, 150]}), labels=["25/11", "26/11", "27/11"], title="t"
    )
    assert ">−2,300<" in svg and "-2,300" not in svg  # a minus, not a hyphen
    # The last date ends at the right edge of the plot instead of being centred on it.
    assert (
        f'x="{charts.WIDTH - charts.PAD_RIGHT:.1f}" y="{charts.HEIGHT - 6}" text-anchor="end"'
        in svg
    )
    assert 'text-anchor="start"' in svg and ">27/11<" in svg


def test_an_empty_chart_draws_a_frame():
    svg = charts.line_chart([], labels=[], title="nothing yet")
    assert svg.startswith("<svg") and "<polyline" not in svg


def test_a_player_with_one_night_gets_a_dot_not_an_empty_chart():
    drawn = charts.line_chart(charts.series({"Ann": [120]}), labels=["25/11"], title="Ann")
    assert "<circle" in drawn and "<polyline" not in drawn
    two = charts.line_chart(charts.series({"Ann": [120, -40]}), labels=["1", "2"], title="Ann")
    assert "<polyline" in two and "<circle" not in two
