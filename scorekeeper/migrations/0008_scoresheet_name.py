from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0007_planner_statistics")]

    operations = [
        migrations.RenameField(model_name="session", old_name="race", new_name="scoresheet"),
    ]
