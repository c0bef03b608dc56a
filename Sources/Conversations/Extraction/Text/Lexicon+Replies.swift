extension Lexicon {
    /// Verbs of being able to come or make it ("نقدر", "نلحق", "نجي"): inside the Egyptian and
    /// Maghrebi negation ما…ش ("ما نلحقش", "مانقدرش", "مجيش") they say no.
    static let comingVerbs: Set<String> = [
        "نقدر", "اقدر", "قدر", "نلحق", "الحق", "لحق", "نجي", "اجي", "جي", "نوصل", "اوصل", "ينفع", "يصلح", "نفضى", "افضى", "فضيت", "نخرج", "اخرج",
        "نروح", "اروح", "يمشي", "نحضر", "احضر", "نكون", "اكون", "نجم", "نجمت", "يزبط", "نزبط", "يناسب", "تنفع", "تمشي",
    ]

    /// "promise", اوعد, اضمن: a no in front of them ("can't promise", "ما اقدر اوعدك") hedges.
    static let promiseStems = ["اوعد", "وعد", "نوعد", "اضمن", "نضمن", "promise", "guarantee", "aw3d", "aw3ed", "w3d", "wa3d", "ad2an"]

    /// "sorry", اسف, معليش: an apology, which says no only when nothing in the message says yes.
    static let apologies: Set<String> = ["sorry", "soz", "sry", "اسف", "اسفه", "اسفين", "معليش", "معلش", "ma3lesh", "ma3lish", "desole", "désolé", "dsl"]

    /// Yes, no and maybe as the dialects and Englishes say them beyond the lists in `source` and
    /// `dialects`: Yemen, Sudan, the Levant, Egypt and the Maghreb in Arabic script and Arabizi;
    /// Filipino, South Asian and West African English; texting shorthand. Also the frames and
    /// holidays chats name a day by, and what only one of the two is doing (a shift, travel, a
    /// broadcast to watch at home).
    static let replies: [([String], Cue)] = [
        ([
            // "I'll come", in each dialect's future.
            "باجي", "باجي ان شاء الله", "ان شاء الله باجي", "شاجي", "حاجي", "بجيك", "باجيك", "جايك", "جيتك", "اكيد باجي", "اكيد بجي",
            "معك اكيد", "اكيد معك", "معاك اكيد", "اكيد معاك", "معكم", "معاكم", "انا معك", "انا معاك", "انا معكم",
            "baji", "bji", "bajee", "ha2gi", "ha2ji", "7a2ji", "jeye", "jeyi", "jaye", "akid jeye", "akid jaye", "akid jey", "ma3ak akid",
            "akid ma3ak", "ana ma3ak", "ana m3ak", "ma3akom",
            // Filipino, South Asian, West African and texting English.
            "sige", "sige sige", "cge", "sge", "g", "g ako", "game ako", "tara g", "push", "pwede", "pwede ako", "kaya", "sure pre",
            "sure sure", "yes yes", "ha ji", "haan ji", "bilkul", "zaroor", "ok done", "done done", "i dey", "i go dey there", "no shaking",
            "it's a deal", "its a deal", "so in", "i'm so in", "im so in", "aight", "ight", "ayt", "bet bet", "yass", "yasss",
            "can't miss it", "cant miss it", "won't miss it", "wont miss it", "wouldn't miss it for the world", "ياي", "يايين", "يايه",
            "d'acc", "dac dac", "ça marche", "c'est bon", "cest bon", "ok pour moi", "je viens", "j'arrive", "avec plaisir",
        ], .accept),
        (["oo", "opo", "haa", "ji"], .acceptAlone),
        ([
            // Egyptian "قشطة", Levantine "ع راسي" ("on my head"), and their Arabizi.
            "قشطه", "قشطه يا معلم", "ع راسي", "عراسي", "ع راسي والله", "ع عيني", "ع عيوني", "عالراس", "على راسي والله",
            "2ashta", "ashta ya", "3a rasi", "3a rase", "3ala rasi", "3ala rase", "3a 3yoni", "3ala 3eni",
        ], .accept),
        ([
            "better", "instead", "rather", "preferably", "احسن", "افضل", "ابرك", "بدال", "بدل", "بدالها",
            "a7san", "ahsan", "afdal", "bdal", "badal", "mieux", "plutot", "plutôt",
        ], .preference),
        ([
            // "There is no time": Yemen (ما بش), Egypt (مفيش), the Levant and the Gulf.
            "ما بش وقت", "مابش وقت", "ما بش", "مابش", "ما فيش وقت", "مافيش وقت", "مفيش وقت", "ما في وقت", "مافي وقت", "ما فيه وقت",
            "ma bish", "mabish", "ma bish wagt", "ma bish wakt", "mafish wa2t", "ma fish wa2t", "mfish wa2t", "ma fi wa2t", "mafi wa2t",
            "ma 3andi wa2t", "ma3andi wa2t", "ma 3indi wagt", "no time", "don't have time", "dont have time", "have no time",
            // Can't, Arabizi spellings.
            "ma fiyye", "ma fiyyi", "ma fiye", "mafiye", "mafiyye", "ma feeye", "ma fiyi", "ma b2ale7", "ma bil7a2", "ma bl7a2",
            "ma2darsh", "m2darsh", "ma2dirsh", "mo2darsh", "ma2darch", "mesh fadya", "msh fadya", "msh fadyah", "mesh fadyah",
            "msh fadia", "mish fadye", "mish fadi", "mish fadiye", "ma n2darsh", "mn2darsh",
            // Put off with a kind word: "it'll be made up", "next time".
            "تتعوض", "تتعوض ان شاء الله", "تنعاد", "نعوضها", "نعوضها ان شاء الله", "نعوضها بعدين", "الجايات اكثر", "الجايه احلى",
            "خيرها في غيرها", "مره جايه", "المره الجايه", "el mara el jaye", "marra tanya", "mara tanya", "mara tanye",
            "maybe next time", "next time na lang", "sa susunod", "sa susunod na lang", "bawi ako", "bawi na lang", "bawi next time",
            "hopefully next time", "some other day", "another time maybe",
            // Filipino, South Asian, West African, French.
            "hindi pwede", "di pwede", "di ako pwede", "hindi ako pwede", "di kaya", "hindi kaya", "di ako makakapunta",
            "hindi ako makakapunta", "di ako makakasama", "hindi ako makakasama", "nahi ho payega", "nahi aa sakti", "nahi aa sakta",
            "nahi aa paunga", "nahi aa paungi", "mushkil hai", "nahi yaar", "sorry yaar", "i no go fit", "e no go work", "no be today",
            "i no dey", "pas dispo", "chui pas dispo", "je suis pas dispo", "je ne suis pas disponible", "pas libre", "je serai pas la",
            // Too tired.
            "ميت تعب", "هلكان", "هلكانه", "مهدود", "مهدوده", "dead tired", "exhausted", "knackered", "wiped out", "too tired",
        ], .deny),
        ([
            // A put-off names no time: "خليها المرة الجاية" proposes nothing.
            "تتعوض", "تنعاد", "نعوضها", "الجايات اكثر", "مره جايه", "المره الجايه", "el mara el jaye", "maybe next time",
            "next time na lang", "sa susunod", "bawi ako", "bawi na lang", "bawi next time", "hopefully next time", "next time",
            // Until the other is back, with no day: "لين ترجعين نشوف", "when you're back".
            "لين ترجعين", "لين ترجع", "لين ترجعون", "لما ترجعي", "لما ترجع", "لما ترجعوا", "when you're back", "when youre back",
            "when you get back", "once you're back", "once youre back", "lama terja3", "lama tirja3i",
        ], .noTimeFrame),
        ([
            "mayb", "mebbe", "maybs", "lemme c", "lemme see", "lemme check", "lemme ask", "lemme think", "lemme confirm", "idk", "i dunno",
            "dunno", "prob", "prolly", "probs", "tingnan ko", "titingnan ko", "baka", "siguro", "dekhte hain", "dekhenge", "dekhta hoon",
            "dekhti hoon", "shayad", "ho sakta hai", "على الله", "مش عارفه", "بكلم اهلي", "اشاور اهلي", "بشاور البيت", "اسال البيت",
            "بسال البيت", "بستاذن", "استاذن", "خليني استاذن", "nchouf", "nshouf m3a", "on verra bien",
        ], .tentative),
        ([
            // Invitations: Filipino "tara", Gulf "عازمك", Egyptian "ta3ala"; a booking made for both.
            "tara", "tara na", "tara g?", "g ka", "g ka?", "game ka", "sama ka", "sama ka?", "sabay tayo", "let's go na",
            "عازمك", "عازمتك", "عازمينك", "عازمكم", "عازمينكم", "حياك", "حياكم", "3azimtk", "3azemtak", "3azmak", "3azmik", "3azimak",
            "ta3ala", "ta3aly", "ta3alo", "ta3ali", "حجزت لنا", "حجزتلنا", "حاجز لنا", "حاجزين لنا", "حجزت لنا", "حجزنا", "7ajazt lna",
            "7ajaztlna", "booked us", "booked for us", "got two tickets", "got 2 tickets", "have two tickets", "have 2 tickets", "got an extra ticket",
            "have an extra ticket", "got a spare ticket", "have a spare ticket", "i've booked us", "ive booked us", "got us tickets", "got tickets for us",
            "reserved for us", "reserved us", "reserved a table", "booked a table",
        ], .invite),
        ([
            // One person's own day: shifts, duty, travel, sleep.
            "may duty", "may pasok", "may lakad", "on duty", "duty ako",
            "مسافر", "مسافره", "بسافر", "راح اسافر", "msafer", "msafir", "msafra", "msafera", "travelling", "traveling", "out of town",
            // Being away ("we're down the coast from tomorrow till Sunday"): the span is one's absence, no counter.
            "i'm away", "im away", "we're away", "we'll be away", "down the coast", "on holiday", "on vacation", "en vacances",
            "انام", "بنام", "anam", "banam", "i'll sleep", "sleeping",
        ], .ownPlan),
        ([
            // Broadcasts: someone else's event, which each watches where they are, unless one
            // asks the other along ("ta3ala netfarag 3al match 3andy").
            "الكلاسيكو", "كلاسيكو", "الديربي", "ديربي", "classico", "clasico", "el clasico", "derby", "the derby", "super bowl", "superbowl",
            "النهائي", "world cup", "كاس العالم", "premier league", "champions league", "دوري الابطال", "grand prix", "f1",
            "eurovision", "بتسهر عليه", "تسهر عليه", "بتتابع", "تتابع", "بتتابعه", "بتشوفه", "هتشوفه",
        ], .thirdParty),
        ([
            "العطله", "العطله الجايه", "الاجازه الجايه", "في العطله", "الصيف", "هالصيف", "الصيف الجاي", "this summer", "next summer",
            "over the summer", "spring break", "half term", "the long weekend", "long weekend", "el 3otla", "el agaza", "el ejaza",
            "la semaine prochaine", "le weekend", "ce weekend", "ce week-end", "le week-end", "nxt week", "next wk", "this wk",
            "one of these weekends", "عطله نهايه الاسبوع",
        ], .vagueFrame),
        (["baje", "bje", "bajay", "bajey"], .oClock),
        // The other's own day, asked about: "shiftak bukra mn 7 ila 3?".
        (["shiftak", "shiftik", "your shift", "ur shift", "دوامك", "شفتك بكره", "shiftak bukra"], .inquiry),
        // "we want to" (Emirati نبا) and "we intend to" ask the other along.
        (["نبا", "نبى", "نبغا", "ناوين", "نبي نروح", "nabgha"], .invite),
        (["el gaya", "el gaya'", "el gayya", "elgaya", "el gai", "el gay", "gaya", "el jaya", "el jaye", "el jayeh", "el jayi"], .next),
        // "yitdafa3 qabl el khamis": paid before Thursday, a deadline.
        (["qabl", "9abl"], .deadline),
        (["qabl", "9abl"], .before),
        (["ejar", "el ejar", "ijar", "el ijar", "el fatora", "fatora", "yitdafa3", "yetdafa3", "يتدفع", "يندفع", "tadfee3"], .notAMeeting),
        ([
            // Watching a broadcast oneself: "هتفرج عليه في البيت", "I'll watch it at home".
            "هتفرج", "هتفرج عليه", "بتفرج عليه", "حتفرج", "حتفرج عليه", "راح اتفرج", "اتفرج عليه", "بتابعه", "هتابعه", "بشوفه بالبيت",
            "i'll watch it", "ill watch it", "watch it at home", "watching it at home", "hatfarag", "hat2farag", "7atfarraj", "btfarraj",
        ], .notAMeeting),
        // Prayers as Egyptian and Levantine Arabizi spell them (g for ج, no vowel after 3).
        (["fagr", "el fagr", "il fagr", "al fajr", "il fajr", "el fejr", "fejr"], .prayer(.fajr)),
        (["el zohr", "zohr", "el dhuhur", "el zuhur", "el do7r", "do7r"], .prayer(.dhuhr)),
        (["el mghrib", "mghrib", "el maghreb", "il maghrib", "el ma8rib"], .prayer(.maghrib)),
        // "ba3d el 3sha" is after Isha; "3sha" alone, like العشا, may be dinner.
        (["3sha", "el 3sha", "el 3esha", "3esha", "il 3sha", "el 3eshaa"], .ishaOrDinner),
        // "we'll make it…": the plural of خليها ("بس نخليها ١٠").
        (["نخليها", "نخليه", "نخلي", "نخلها", "نخلوها", "nkhaliha", "n5aliha", "n5alliha", "nkhalliha"], .invite),
        // French months, as the Maghreb and Lebanon write dates ("samedi 2 janvier").
        (["janvier", "janv"], .month(1)), (["février", "fevrier", "fév", "fev"], .month(2)), (["mars"], .month(3)), (["avril"], .month(4)),
        (["juin"], .month(6)), (["juillet"], .month(7)), (["août", "aout"], .month(8)), (["septembre"], .month(9)), (["octobre"], .month(10)),
        (["novembre"], .month(11)), (["décembre", "decembre"], .month(12)),
        // "I work till 4" in the Maghreb; "3nde dars" (Levantine Arabizi "I have a class").
        (["نخدم", "نخدم حتى", "nkhdem", "nekhdem", "ana nekhdem", "3nde", "3nde dars", "3ande dars"], .ownPlan),
        // French "I have an exam, I work": one's own day, as the Maghreb and Lebanon write it.
        (["j'ai un", "j'ai une", "j'ai cours", "j'ai boulot", "j'ai taf", "j'ai du travail", "j'ai exam", "je travaille", "je bosse", "je suis de garde"], .ownPlan),
        (["صحا", "صحيت", "saha", "sa7a", "saha saha", "saha 3lik"], .acceptAlone),
        // French, as the Maghreb and Lebanon write it: called off, put off, and "if".
        (["annulé", "annulée", "annule", "on annule", "annuler", "reporté", "reportée", "reporter", "on reporte", "ils ont reporté", "ils ont annulé"], .cancel),
        (["on voit", "on se dit", "on en reparle", "on se tient au courant", "je te confirme", "je confirme"], .tentative),
        (["si y a", "si y'a", "s'il y a", "s'il fait", "si il fait", "si pas de", "sauf si", "si jamais"], .conditional),
        ([
            "وبعدها", "و بعدها", "وبعدين", "و بعدين", "وبعده", "and then", "then after", "after that", "afterwards", "and after that", "w ba3dein",
            "w ba3dain", "w ba3deen", "wba3dein", "w ba3daha", "w ba3dha", "et après", "puis",
        ], .sequence),
        ([
            "خساره", "يا خساره", "ياخساره", "خسارتها", "يا حرام", "ya khsara", "ya 5sara", "khsara", "5sara", "5saara", "too bad", "what a shame",
            "shame", "such a shame", "pity", "what a pity", "never mind", "nevermind", "nvm", "oh well", "مره اخرى", "مره اخري", "marra okhra",
            "dommage", "tant pis", "sayang", "sayang naman",
        ], .regret),
        ([
            "don't need to", "dont need to", "no need to", "you needn't", "no need for you to", "مو لازم", "مش لازم", "مب لازم", "ما يحتاج", "ما له داعي",
            "ملوش لزوم", "mesh lazem", "msh lazem", "mo lazem", "mb lazem", "pas besoin",
        ], .waiver),
        // "I wish (I could)": a regret before the excuse ("يا ريت والله، بس عندي امتحان").
        (["يا ريت", "ياريت", "ya reit", "ya rait", "ya rit"], .hypothetical),
        // Someone else said it: "قالوا بترجع الساعة ٢" (the power, not a plan).
        (["قالوا", "قالو", "بيقولوا", "يقولوا", "they said", "they say", "qalou", "2alo", "2alu"], .thirdParty),
        (["الكهربا", "الكهرباء", "كهربا", "الكهربه", "power cut", "power outage", "load shedding", "loadshedding", "el kahraba", "kahraba", "el kahrba"], .notAMeeting),
        (["3andy", "3ndy", "3andy shoghl"], .ownPlan),
        // Away for work: "Sunday week I'm in Davao for work".
        (["for work", "on a work trip", "work trip", "business trip", "on business", "للشغل", "عشان الشغل", "في مهمه عمل", "رحله عمل", "lel shoghl"], .ownPlan),
        // Names with a number: "Trail 5", "Hall 4", "Tower 2" (the number is no time).
        (["trail", "hall", "tower", "block", "phase", "sector", "zone", "lane", "exit", "bay", "studio", "screen", "unit", "villa", "plot", "stage", "ward", "route", "شارع", "بلوك", "مخرج", "بوابة"], .numberLabel),
        // Offering a favour, not an invitation: "تبين شي من هناك؟", "need anything?".
        // Asking leave for a detail ("I'll bring my brother if that's ok") makes no condition of the yes.
        (["if that's ok", "if thats ok", "if that's okay", "if that's alright", "if that's fine", "if you don't mind", "if you dont mind",
          "if it's ok with you", "اذا ما عندك مانع", "لو ما عندك مانع", "اذا ما فيه مانع"], .neutral),
        // Scots no, Malay yes.
        (["cannae", "canna", "i cannae", "cannae make it", "cannae dae it"], .deny),
        (["jumpa sana", "jumpa kat sana", "jumpa nanti", "jumpa esok", "boleh je", "set lah", "ok set"], .accept),
        (["تبين شي", "تبي شي", "تبغى شي", "تبغين شي", "تحتاج شي", "need anything", "want anything", "tabi shay", "tebi shi"], .neutral),
        // Thanks for an evening that was: "thanks for having us tonight".
        (["thanks for having us", "thanks for having me", "thank you for having us", "thank you for having me", "thx for having us", "thanks for tonight"], .past),
        // Yemeni "I want you (to come)".
        (["اشتيك", "اشتيكم", "اشتي تجي", "ashteek"], .invite),
        (["سمحي ليا", "سمحيلي", "سمحيلي الزين", "سمح ليا الزين", "سمحي ليا الزين"], .deny),
        // French family words: "ton frère il part quand?" asks about someone else's day.
        (["ton frère", "ta sœur", "ta soeur", "mon frère", "ma sœur", "ma soeur", "ta mère", "ton père", "ma mère", "mon père", "ma tante", "mon cousin", "ma cousine"], .thirdParty),
        (["ahwa", "2ahwa", "el ahwa", "el 2ahwa", "ahwa?", "2hwa"], .activity(Activity("Coffee", "قهوة", .none, weight: 3))),
        (["عقب", "3ugb", "3gb", "3igb", "3ugub", "après", "apres"], .after),
        (["ghda", "ghedda", "ghdda"], .relativeDay(1)),
        (["boxing day"], .fixedDate(month: 12, day: 26)),
        (["christmas day", "xmas day", "on christmas", "يوم الكريسماس"], .fixedDate(month: 12, day: 25)),
        (["christmas eve", "xmas eve", "ليله الكريسماس"], .fixedDate(month: 12, day: 24)),
        (["new year's eve", "new years eve", "nye", "ليله راس السنه", "راس السنه"], .fixedDate(month: 12, day: 31)),
        (["new year's day", "new years day"], .fixedDate(month: 1, day: 1)),
        (["valentine's day", "valentines day", "valentine's", "عيد الحب"], .fixedDate(month: 2, day: 14)),
        (["halloween"], .fixedDate(month: 10, day: 31)),
        ([
            "مقيل", "المقيل", "تخزينه", "التخزينه", "nakhzin", "takhzeena", "videoke", "karaoke night", "merienda", "movie night",
        ], .activity(Activity("Gathering", "جلسة", .evening, weight: 2))),
        (["زوم", "على زوم", "تيمز", "teams call", "google meet", "gmeet"], .activity(Activity("Call", "مكالمة", .none, weight: 2))),
    ]
}
