#!/usr/bin/env python3
"""Writes an Apple Health export.zip of realistic shape, deterministically (a fixed seed).

  Benchmarks/health/make_export.py OUT.zip [--mb 200] [--of xml|zip] [--start 2017-01-01]

It is what an iPhone with an Apple Watch writes from "Export All Health Data": the folder
`apple_health_export/` with `export.xml` (the document type with its internal subset, the export
date, `Me`, then day after day of records), `export_cda.xml` and workout routes. Each day holds:

- quantity samples from the Watch and the iPhone: heart rate every few minutes while awake (each
  with its motion-context metadata, as Apple writes it), steps, distance, active and basal energy,
  stand time, a few heart-rate-variability records with their list of beats;
- sleep analysis: the iPhone's time in bed and, from 2022 (watchOS 9), the Watch's stages (core,
  deep, REM, awake, a dozen a night); before that, the old `HKCategoryValueSleepAnalysisAsleep`;
- a workout on about half the days, with metadata, events, statistics and a route;
- the day's activity summary.

The file grows until the XML (`--of xml`) or the zip (`--of zip`, the default) reaches `--mb`
megabytes; the zip is written as it goes (deflate, ZIP64 when the XML passes 4 GB), never held in
memory. Prints how many days, records, nights and workouts it holds, for the benchmark to check.
"""
import argparse
import datetime
import random
import sys
import zipfile

HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
<!ATTLIST Workout
  workoutActivityType   CDATA #REQUIRED
  duration              CDATA #IMPLIED
  durationUnit          CDATA #IMPLIED
  totalDistance         CDATA #IMPLIED
  totalDistanceUnit     CDATA #IMPLIED
  totalEnergyBurned     CDATA #IMPLIED
  totalEnergyBurnedUnit CDATA #IMPLIED
  sourceName            CDATA #REQUIRED
  sourceVersion         CDATA #IMPLIED
  device                CDATA #IMPLIED
  creationDate          CDATA #IMPLIED
  startDate             CDATA #REQUIRED
  endDate               CDATA #REQUIRED
>
<!ELEMENT WorkoutEvent (MetadataEntry?)>
<!ELEMENT WorkoutStatistics EMPTY>
<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
<!ELEMENT FileReference EMPTY>
<!ATTLIST FileReference
  path CDATA #REQUIRED
>
<!ELEMENT ActivitySummary EMPTY>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
]>
<HealthData locale="en_SA">
 <ExportDate value="{export} +0300"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
"""

WATCH = ('sourceName="Huda’s Apple Watch" sourceVersion="{v}" device="&lt;&lt;HKDevice: 0x2822{h}&gt;, name:Apple Watch, '
         'manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:{v}&gt;"')
PHONE = ('sourceName="Huda’s iPhone" sourceVersion="{v}" device="&lt;&lt;HKDevice: 0x2820{h}&gt;, name:iPhone, '
         'manufacturer:Apple Inc., model:iPhone, hardware:iPhone13,2, software:{v}&gt;"')
ACTIVITIES = ["Walking", "Running", "TraditionalStrengthTraining", "Cycling", "Swimming", "Yoga", "HighIntensityIntervalTraining"]


def stamp(moment):
    return moment.strftime("%Y-%m-%d %H:%M:%S") + " +0300"


class Writer:
    def __init__(self, stream, archive, measure, limit):
        self.stream, self.archive, self.measure, self.limit = stream, archive, measure, limit
        self.xml_bytes = 0
        self.parts = []
        self.pending = 0

    def write(self, text):
        data = text.encode("utf-8")
        self.parts.append(data)
        self.pending += len(data)
        self.xml_bytes += len(data)
        if self.pending >= 1 << 20:
            self.flush()

    def flush(self):
        self.stream.write(b"".join(self.parts))
        self.parts, self.pending = [], 0

    def full(self):
        size = self.xml_bytes if self.measure == "xml" else self.archive.fp.tell()
        return size >= self.limit


def day(writer, rng, date, counts):
    """Writes one day's records; counts what the importer should find."""
    year = date.year
    watch_v, phone_v = ("10.2", "17.2") if year >= 2023 else ("9.1", "16.1") if year >= 2022 else ("7.3", "14.4")
    watch = WATCH.format(v=watch_v, h=f"{rng.randrange(16**6):06x}")
    phone = PHONE.format(v=phone_v, h=f"{rng.randrange(16**6):06x}")
    base = datetime.datetime(date.year, date.month, date.day)
    wake = base + datetime.timedelta(hours=6, minutes=rng.randrange(0, 60))
    bed = base + datetime.timedelta(hours=22, minutes=45 + rng.randrange(0, 60))

    def record(kind, source, unit, value, start, end, children=""):
        created = end + datetime.timedelta(minutes=rng.randrange(1, 30))
        head = (f' <Record type="{kind}" {source} unit="{unit}" creationDate="{stamp(created)}" startDate="{stamp(start)}" '
                f'endDate="{stamp(end)}" value="{value}"')
        writer.write(head + (f">\n{children} </Record>\n" if children else "/>\n"))
        counts["records"] += 1

    # Waking hours: heart rate every ~4 minutes, other quantities in ~10-minute buckets.
    moment = wake
    while moment < bed:
        record("HKQuantityTypeIdentifierHeartRate", watch, "count/min", rng.randrange(58, 140), moment, moment,
               f'  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="{rng.randrange(0, 3)}"/>\n')
        moment += datetime.timedelta(minutes=rng.randrange(3, 6))
    moment = wake
    while moment < bed:
        end = moment + datetime.timedelta(minutes=rng.randrange(5, 12))
        record("HKQuantityTypeIdentifierStepCount", phone, "count", rng.randrange(5, 900), moment, end)
        record("HKQuantityTypeIdentifierStepCount", watch, "count", rng.randrange(5, 900), moment, end)
        record("HKQuantityTypeIdentifierDistanceWalkingRunning", phone, "km", f"{rng.random() * 0.6:.5f}", moment, end)
        record("HKQuantityTypeIdentifierActiveEnergyBurned", watch, "Cal", f"{rng.random() * 12:.3f}", moment, end)
        record("HKQuantityTypeIdentifierBasalEnergyBurned", watch, "Cal", f"{rng.random() * 8:.3f}", moment, end)
        moment = end
    for _ in range(rng.randrange(2, 6)):
        start = wake + datetime.timedelta(minutes=rng.randrange(0, 900))
        beats = "".join(f'   <InstantaneousBeatsPerMinute bpm="{rng.randrange(55, 90)}" time="{start.strftime("%I:%M:%S.%f")[:-3]} AM"/>\n'
                        for _ in range(rng.randrange(40, 70)))
        record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", watch, "ms", f"{rng.random() * 80:.4f}", start,
               start + datetime.timedelta(minutes=1), f"  <HeartRateVariabilityMetadataList>\n{beats}  </HeartRateVariabilityMetadataList>\n")

    # The night that ends this morning: the iPhone's time in bed, and the Watch's sleep.
    night_start = base - datetime.timedelta(hours=1, minutes=rng.randrange(0, 50))
    record("HKCategoryTypeIdentifierSleepAnalysis", phone, "", "HKCategoryValueSleepAnalysisInBed", night_start - datetime.timedelta(minutes=15),
           wake + datetime.timedelta(minutes=10))
    moment = night_start
    if year >= 2022:
        while moment < wake:
            stage = rng.choice(["AsleepCore", "AsleepCore", "AsleepDeep", "AsleepREM", "Awake"])
            end = min(wake, moment + datetime.timedelta(minutes=rng.randrange(10, 60)))
            record("HKCategoryTypeIdentifierSleepAnalysis", watch, "", f"HKCategoryValueSleepAnalysis{stage}", moment, end,
                   '  <MetadataEntry key="HKTimeZone" value="Asia/Riyadh"/>\n')
            moment = end
    else:
        record("HKCategoryTypeIdentifierSleepAnalysis", watch, "", "HKCategoryValueSleepAnalysisAsleep", moment, wake)
    counts["nights"] += 1

    if rng.random() < 0.5:
        kind = rng.choice(ACTIVITIES)
        start = base + datetime.timedelta(hours=rng.choice([7, 17, 18]), minutes=rng.randrange(0, 50))
        minutes = rng.randrange(20, 75) + rng.random()
        end = start + datetime.timedelta(minutes=minutes)
        writer.write(
            f' <Workout workoutActivityType="HKWorkoutActivityType{kind}" duration="{minutes}" durationUnit="min" {watch} '
            f'creationDate="{stamp(end)}" startDate="{stamp(start)}" endDate="{stamp(end)}">\n'
            f'  <MetadataEntry key="HKIndoorWorkout" value="0"/>\n'
            f'  <MetadataEntry key="HKAverageMETs" value="{rng.random() * 10:.4f} kcal/hr·kg"/>\n'
            f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{stamp(start)}" duration="{minutes / 2:.4f}" durationUnit="min"/>\n'
            f'  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="{stamp(start + (end - start) / 2)}" duration="{minutes / 2:.4f}" durationUnit="min"/>\n'
            f'  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="{stamp(start)}" endDate="{stamp(end)}" sum="{minutes * 8:.3f}" unit="Cal"/>\n'
            f'  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="{stamp(start)}" endDate="{stamp(end)}" average="131" minimum="92" maximum="162" unit="count/min"/>\n'
            f'  <WorkoutRoute {watch.split(" device=")[0]} creationDate="{stamp(end)}" startDate="{stamp(start)}" endDate="{stamp(end)}">\n'
            f'   <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>\n'
            f'   <FileReference path="/workout-routes/route_{date.isoformat()}_{start.strftime("%-I.%M%p").lower()}.gpx"/>\n'
            f'  </WorkoutRoute>\n'
            f' </Workout>\n')
        counts["workouts"] += 1
    writer.write(f' <ActivitySummary dateComponents="{date.isoformat()}" activeEnergyBurned="{rng.random() * 700:.3f}" activeEnergyBurnedGoal="500" '
                 f'activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="{rng.randrange(0, 90)}" '
                 f'appleExerciseTimeGoal="30" appleStandHours="{rng.randrange(4, 14)}" appleStandHoursGoal="12"/>\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--mb", type=float, default=200)
    parser.add_argument("--of", choices=["xml", "zip"], default="zip")
    parser.add_argument("--start", default="2017-01-01")
    args = parser.parse_args()
    rng = random.Random(25)
    limit = int(args.mb * 1024 * 1024)
    counts = {"days": 0, "records": 0, "nights": 0, "workouts": 0}
    date = datetime.date.fromisoformat(args.start)
    with zipfile.ZipFile(args.out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        archive.writestr("apple_health_export/export_cda.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<ClinicalDocument/>\n')
        with archive.open("apple_health_export/export.xml", "w", force_zip64=True) as stream:
            writer = Writer(stream, archive, args.of, limit)
            writer.write(HEADER.replace("{export}", (date + datetime.timedelta(days=4000)).isoformat() + " 09:00:00"))
            while not writer.full():
                day(writer, rng, date, counts)
                counts["days"] += 1
                date += datetime.timedelta(days=1)
                if counts["days"] % 64 == 0:
                    writer.flush()
            writer.write("</HealthData>\n")
            writer.flush()
        archive.writestr("apple_health_export/workout-routes/route_2017-01-02_7.05am.gpx", "<gpx/>\n")
    print(f"{args.out}: {counts['days']} days, {counts['records']} records, {counts['nights']} nights, {counts['workouts']} workouts, "
          f"export.xml {writer.xml_bytes / 1048576:.1f} MiB", file=sys.stderr)
    print(f"days={counts['days']} records={counts['records']} nights={counts['nights']} workouts={counts['workouts']} xml={writer.xml_bytes}")


if __name__ == "__main__":
    main()
