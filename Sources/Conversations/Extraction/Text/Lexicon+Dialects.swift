extension Lexicon {
    /// Everyday words of the Arabic dialects (Gulf, Najd and Hijaz, Iraq, Egypt, the Levant, the
    /// Maghreb), their Arabizi spellings, French as used in the Maghreb, and the English of
    /// South Asia, West Africa, the UK and the US: the ways of saying yes, no, maybe and when
    /// that the core list in `source` does not already hold.
    static let dialects: [([String], Cue)] = [
        ([
            // Gulf, Najd, Hijaz, Iraq.
            "ان شاء الله حاضر", "سم", "سمي", "ابشر بعزك", "ابشر بسعدك", "طال عمرك", "على هواك", "يصير خير", "ما يخالف", "ما في مانع",
            "ما عندي مانع", "مافي مانع", "لا مانع", "ما فيه مانع", "ماكو مانع", "ماكو مشكله", "ماكو شي", "خوش", "خوش فكره", "تدلل", "تدللين",
            "على عيني", "عيوني", "على خشمي", "توكلنا على الله", "توكلنا", "على بركه الله", "اوكي نمشي", "نمشيها", "مشيناها", "فله",
            "ولا يهمك", "حلوه", "حلو والله", "كفو", "اكيد اكيد", "طبعا", "بالتاكيد", "جاهز", "جاهزه", "جاهزين", "اوكي اتفقنا",
            "نلتقي هناك", "اشوفك هناك", "نشوفك هناك", "نتلاقى هناك", "اشوفكم", "ان شاء الله نكون", "ان شاء الله بكون", "ان شاء الله اجي",
            "اجي ان شاء الله", "بجي", "بنجي", "راح اجي", "رح اجي", "هاجي", "هجي", "جايين ان شاء الله",
            // Egypt.
            "اشطا", "اشطه", "ظبط", "مظبوط", "ماشي الكلام", "تمام يا باشا", "من عنيا", "عنيا", "حلو اوي", "تمام جدا", "هنيجي", "هكون موجود",
            "هكون هناك", "خلاص اتفقنا", "يبقى اتفقنا", "اتفقنا خلاص", "ماشي يا سيدي", "موافقه",
            // Levant.
            "مية مية", "ميه ميه", "مزبوط", "زابط", "بيزبط", "بتزبط", "منيحه", "عظيم", "تكرم", "تكرمي", "تكرم عينك", "بتمون", "خلص",
            "خلص اتفقنا", "منلتقي", "بشوفك", "منشوفك", "اكيد جايه", "ماشي الحال", "اوكي حبيبي",
            // Maghreb.
            "واخا", "واخه", "وخا", "مزيان", "مزيانه", "صافي", "داكور", "بلا مزيه", "نتلاقاو", "نتلاقاو تما", "ان شاء الله نجي",
            "مليح", "مليحه", "باهي", "باهي برشا", "يعيشك", "mli7", "m'li7", "behi", "bahi", "ya3tik essa7a",
            // Arabizi and French.
            "wakha", "wakhha", "wa5a", "safi", "mzyan", "mzian", "d'accord", "dac", "dakor", "ca marche", "ça marche", "ok ca marche", "parfait",
            "ashta", "eshta", "zabat", "mazboot", "mazbout", "mnee7", "mni7", "6ayeb", "tab", "sa7", "khosh", "5osh", "9ar", "saar",
            "tamam ya", "mashi ya", "yalla tamam", "abshir", "abshar", "absher", "tem", "tamm", "ok tamam", "okay tamam", "akeed ya basha",
            "bashoofak", "ashoofak", "ashoofik", "ashofak", "nshoofak", "nshofak", "ashoofkom", "ntla2a", "mnetla2a", "mnshoofak", "inshallah jay",
            "inshallah ji", "ha2ji", "hagi", "7agi", "ha koon", "ankoon", "bakoon", "bkoon", "taba3an", "tab3an", "akid akid", "100%",
            // English around the world.
            "it's a plan", "thats a plan", "that's a plan", "see you there", "see you then", "see u then", "see u there", "see ya there",
            "that's fine", "thats fine", "fine with me", "okay then", "ok then", "alright then", "can do", "we'll be there", "we will be there",
            "count us in", "we're in", "were in", "locked in", "lock it in", "book it", "book us in", "i've booked", "ive booked", "go for it", "let's do that", "lets do that",
            "yh", "yeh", "aye", "grand", "sorted", "lush", "brill", "cheers", "no wahala", "i go come", "i dey come", "i go dey",
            "sharp sharp", "theek hai", "thik hai", "chalo", "pakka", "ok ji", "ok lah", "okay lah", "sure lah", "done deal", "ur a star", "you're a star",
            "youre a star", "you're the best", "youre the best", "even better", "works for us", "suits us", "that suits", "looking forward",
            "look forward", "can't wait to", "i'll be ready", "ill be ready", "be ready", "i'll bring", "ill bring", "i'll book", "ill book", "booking it",
            "i'm there", "we're there", "obviously", "deffo", "yes pls", "yes plz", "ya sure", "yeah sure", "yep sure", "okay sure",
            "works perfectly", "works great", "that's perfect", "thats perfect", "will come", "we'll come", "we will come",
            "i'll join", "ill join", "will join", "i'm up for", "im up for", "up for it", "definitely in",
        ], .accept),
        ([
            "صار", "اي", "ih", "ee", "eh", "haan", "han", "can", "bet", "down", "ايوه ايوه", "اه", "آه", "واه",
            "wah", "iyeh", "ايه", "ey", "aha", "ah ok",
            // Yes only as the whole reply: inside a sentence they say something else ("I'm in
            // Joburg that day", "hope it goes fine", "thanks for having us").
            "i'm in", "im in", "i am in", "fine", "thank you", "thanks",
            // Sudanese and Egyptian "good" as the answer to "…، كويس؟" ("كويس شديد" is "very good").
            "كويس", "كويس شديد", "كويس جدا", "كويسه", "kwayes", "kwayyes",
        ], .acceptAlone),
        ([
            // Gulf, Najd, Hijaz, Iraq.
            "ما اروم", "ماروم", "ما اقدر اروح", "ما اقدر اجي", "ما امداني", "ما احصل وقت", "ما عندي وقت", "ما فضيت", "ملخبط", "ما يزين",
            "ما ظنتي", "صعبه", "عذرا", "خلها بعدين", "خليها بعدين", "خلها وقت ثاني", "خليها وقت ثاني", "مب مناسب", "ما يمشي", "ما تمشي",
            "لا ما اقدر", "ماكو مجال", "ماكو وقت", "ما اكدر اجي", "ما اوصل", "ما اقدر ابد", "ما راح يمديني", "مب فاضيه", "مب ماشي",
            "مو ماشي", "مو راح اقدر", "ما لحق", "ما الحق", "ماني قادر", "ما اقدر والله", "والله ما اقدر", "ما اتوقع اقدر",
            // Egypt.
            "مينفعش", "ما ينفعش", "ماينفعش", "مش هاجي", "مش جاي", "مش جايه", "معرفش", "مش هيمشي", "مش هلحق", "ملحقش", "مش هقدر اجي",
            "مش فاضيه", "مقدرش اجي", "مش هعرف اجي",
            // Levant.
            "ما فيني", "ما فيي", "مافيني", "مافيي", "ما رح اجي", "مش رح اقدر", "مش رح يزبط", "ما رح يزبط", "ما بلحق", "ما رح الحق",
            "ما بيمشي", "بدي اعتذر", "ما بقدر اجي", "ما بيمشيلي",
            // Maghreb.
            "ما نقدرش", "مانقدرش", "منقدرش", "ما يمكنش", "ما نجمش", "مانجمش", "ماشي ممكن", "ما عنديش الوقت", "معنديش الوقت", "ما نجيش",
            "مانيش فاضي", "مانيش فاضيه", "ما غاديش نقدر", "ماغاديش نقدر", "سمحلي", "سمح ليا", "سامحني", "مكنش", "ما كانش",
            // Arabizi and French.
            "mesh ha2dar", "mish ha2dar", "msh ha2dar", "mesh 2ader", "msh 2ader", "mesh hagi", "msh hagi", "mesh fady", "msh fady", "mesh fadi",
            "ma bi2dar", "ma ba2dar", "ma b2dar", "ma a8dar", "ma a8der", "ma agdar", "ma ag9ar", "ma fini", "mafini", "ma feeni", "ma fine", "mafine", "ma feene", "ma 2dar", "ma nqderch", "ma n9derch", "manqderch", "ma najmch",
            "ma nejmch", "ma ne9derch", "ma arom", "ma aroom", "ma 2agdar", "ma ogdar", "mabi2dar", "ma yenfa3", "mayenfa3sh", "mayinfa3sh",
            "ma yinfa3sh", "ma ynfa3sh", "mesh hayenfa3", "msh hyenfa3", "mesh hyenfa3", "mayenfa3ch", "ma bizbat", "ma bizabet", "ma fadi",
            "mani fadi", "machi mumkin", "mashi mumkin", "ma3lesh", "ma3lish", "m3lsh", "ma3alesh", "sme7li", "smahli", "smeh liya",
            "ma rah a2dar", "ma ra7 a2dar", "mish ra7 a2dar", "ma agdar aji", "ma a8dar aji", "mani jay", "mish jay", "mesh gay", "msh gay",
            "désolé", "desole", "dsl", "je peux pas", "je ne peux pas", "pas possible", "j'peux pas",
            // English around the world.
            "i no fit", "no fit", "not gonna make it", "gonna have to pass", "gotta pass", "have to say no",
            "afraid not", "not for me", "sit this one out", "is a no", "'s a no", "a no for me", "a no", "no-go", "can't swing it", "can't do it",
            "cant do it", "won't manage", "can't manage", "not feasible", "doesn't suit", "does not suit", "not convenient", "clashes",
            "i'm booked", "im booked", "fully booked", "i'm working", "im working", "won't be free", "wont be free", "is gone", "is out",
            "is taken", "won't happen", "not happening", "i'm not free", "im not free", "i'm not around", "im not around", "not around",
            "can't join", "cant join", "can't attend", "cant attend", "won't be there", "wont be there", "will not be there", "must decline",
            "have to decline", "gotta bail", "won't work for me", "doesn't work for me", "not gonna happen",
        ], .deny),
        ([
            "but", "though", "tho", "however", "بس", "لكن", "لاكن", "بيد ان", "bas", "bs", "bass", "walakin", "lakin", "mais",
        ], .contrast),
        ([
            "should be fine", "should be ok", "should be okay", "i think i can", "fingers crossed", "🤞", "pencil it in", "pencil me in",
            "let me get back", "depends on", "check with", "ask my wife", "ask my husband", "will see", "if god wills", "not sure if",
            "i'd love to but", "id love to but", "would love to but", "let me see if", "may be", "might be able", "we'll try", "will try",
            "غالبا", "احتمال", "يمكن اقدر", "ممكن اقدر", "بخبرك", "رح خبرك", "بقلك", "بعلمك", "نشوف الظروف", "نتشاور", "بسال", "اسال",
            "اشاور", "بشاور", "الله يسهل", "ربك يسهل", "ربنا يسهل", "هشوف", "حشوف", "رح شوف", "بشوف ان شاء الله", "خليني اتاكد", "مش متاكد",
            "مو متاكد", "مب متاكد", "مش اكيد", "مو اكيد", "مب اكيد", "نشوفو", "غادي نشوف", "ما عرفتش", "معرفتش", "ان شاء الله بس",
            "ان شاء الله اذا", "ان شاء الله نشوف", "ان شاء الله خير", "بكلمك بعدين", "اكلمك بعدين", "برجعلك", "برجع لك", "ارجعلك",
            "واحدد", "احدد", "بحدد", "وابلغك", "ابلغك", "سابلغك", "ساراجع", "اراجع", "براجع", "ساؤكد", "اؤكد لك", "وارد عليك", "ما بوعدك",
            "ما بوعد", "ما اوعد", "mab wa3dak", "ma bwa3dak", "check my schedule", "check my calendar", "جدولي", "واقولك", "واخبرك", "ساخبرك",
            "à voir", "a voir", "on verra", "peut-être", "peut etre", "peutetre", "je vais essayer", "j'essaierai", "je promets rien",
            "te promets rien", "je sais pas", "jsp", "je te dis", "je te redis", "je vous dis", "je confirme plus tard",
            "momken", "yimken", "yemken", "mumken", "bshouf", "hashoof", "ha shoof", "rah shoof", "ra7 shoof", "nshoofo", "ma ba3ref", "mesh 3aref",
            "msh 3aref", "mish 3aref", "mish akid", "mesh akid", "insha2allah bas", "inshallah bas", "bakhabrak", "b2ollak", "2ollak", "ba2ollak",
            "bgollak", "bkhabrak", "3ala 7asab", "7asab", "nshouf", "ghadi nchouf", "nchouf", "on verra", "mumkin", "yimkin",
        ], .tentative),
        ([
            // Not a plan between the two: one person's own day.
            "i have the", "i've got the", "i have work", "i've got work", "i work", "my shift", "on shift", "night shift", "day shift",
            "weekend shift", "my train", "my bus", "i land", "i'm landing", "im landing", "i fly", "my class", "i have class", "i have school",
            "my exam", "exams", "i have exams", "my doctor", "dentist", "doctor's", "my lecture", "my meeting", "i have a meeting", "setting",
            "i'll be dead", "recovering", "my oga", "on call", "i have ot", "overtime", "late shift", "early shift",
            "عندي", "عندي ظرف", "دوامي", "عندي شفت", "شفتي", "طيارتي", "رحلتي", "مداوم", "بدوام", "ورايا", "ورايا شغل", "عليا شغل",
            "امتحاني", "اختباري", "محاضرتي", "عندي مدرسه", "عندي جامعه", "عندي كلاس", "عندي دكتور", "مناوبه", "مناوب", "عندي مناوبه",
            "3andi", "3indi", "3ndi", "3ande", "waraya", "3alaya", "dawami", "3andi dawam", "3andi shift", "3andi emte7an", "3andi exam",
            "3indi emti7an", "3andi mo7adra", "3andi shoghl", "3ndi shoghol",
        ], .ownPlan),
        ([
            "alarm", "reminder set", "assignment", "homework due", "exam", "school", "school run", "nursery", "on tv", "on telly",
            "livestream", "stream", "premiere", "release", "releases", "launches", "sale", "renew", "renewal",
            "results", "come out", "comes out", "rubbish", "bin day", "fyi",
            "payment", "pay", "rent", "bill", "invoice", "receipts", "report", "slides", "submit it", "send it",
            "nsallim", "nsalem", "nsallem", "تسليم", "نسلم", "اسلم", "يتسلم", "الواجب", "واجب", "المدرسه", "مدرسه",
            "التلفزيون", "بالتلفزيون", "على التلفزيون", "يعرض", "تعرض", "العرض الاول", "الفاتوره", "فاتوره", "الايجار",
            "ايجار", "القناه", "قناه", "channel",
            // Watching a broadcast, each where they are ("ye watchin the gemme sunday?", "tu regardes le match ce soir?").
            "watching the", "watchin the", "you watching", "u watching", "watching with", "tu regardes", "regardes le", "تتفرج", "بتتفرج", "هتتفرج",
            "باش تتفرج", "hatetfarag", "hatetfarrag", "btetfarraj", "tetfarag", "بيلعب", "bi yel3ab", "byel3ab", "bein", "ssc", "mbc", "يذاع", "تذاع", "البث", "الخبر", "الاخبار", "news", "على الرياضيه",
            "الحراره", "درجه الحراره", "temperature", "heatwave", "موعد التسليم", "اخر موعد", "مهلة", "مهله", "deadline", "el taslim", "taslim", "wajib", "el wajib",
        ], .notAMeeting),
        ([
            "your sister", "your brother", "your mum", "your mom", "your dad", "your cousin", "your boss", "your husband", "your wife",
            "your parents", "your kids", "خوك", "ختك", "ابوك", "بوك", "امك", "خالك", "عمك", "امج", "ابوج", "اخوج", "خوج", "اختج", "ختج", "5ouk", "khouk", "okhtek", "o5tik",
            "my sister", "my brother", "my wife", "my husband", "my son", "my daughter", "my kids", "my friend", "my friends", "my family",
            "my parents", "my team", "they're", "theyre", "they are", "they'll", "they get", "they always", "it gets", "he'll", "she'll", "he has", "she has", "they have",
            "اخوي", "اخوك", "اختي", "اختك", "اهلي", "ربعي", "اصحابي", "صحابي", "زوجي", "مرتي", "مراتي", "جوزي", "اخويا", "اختي", "عيالي",
            "الاولاد", "اخوه", "اخته", "عنده", "عندها", "عندهم", "راح يروح", "رايح", "رايحه", "رايحين", "بيروحون",
            "خويي", "خويا", "صاحبتي", "akhoya", "okhti", "ukhti", "akhooy", "5ooy", "5oya", "3ando", "3andha", "3andhom",
        ], .thirdParty),
        ([
            "امبارح", "امبارحه", "مبارح", "البارحه", "الاسبوع الماضي", "الاسبوع اللي فات", "الجمعه اللي فاتت", "كنا", "كان حلو", "كانت حلوه",
            "رحت", "سافرت", "شفت", "شفتي", "سمعت", "did you see", "have you seen", "saw", "you seen", "lastweek", "last time", "the other day", "embare7", "imbare7", "mbare7", "el esbo3 elli fat", "kan 7elw",
        ], .past),
        ([
            "by", "before", "no later than", "قبل", "لين", "لحد", "حتى", "الى حد", "gabl", "abl", "2abl", "la7ad", "lain",
        ], .deadline),
        ([
            // Days, in every dialect's spelling.
            "الحد", "يوم الحد", "نهار الحد", "el 7ad", "el had", "7ad", "l7ad", "el a7ad", "elahad",
        ], .weekday(1)),
        ([
            "التنين", "تنين", "الاثنين", "لاثنين", "el tanen", "tanen", "el tanein", "tanein", "el etnen", "el etnein", "etnein",
            "el itnen", "itnen", "letnin", "l tnin", "el tnine", "tnine", "el etnin", "etnin", "el ithnen", "ithnen", "el tnin", "tnin", "ltnin", "el itnain", "itnain", "el ithneen", "ithneen", "el ethnein",
        ], .weekday(2)),
        ([
            "التلات", "تلات", "التلاتاء", "التلاتا", "تلاتا", "يوم الثلاث", "el talat", "el tlat", "el tlata", "el thlatha",
            "el tholatha", "tholatha", "el telat", "el thalath", "ltlat", "el talata'", "ttlata", "tlata", "el tlatha", "l tlata", "ettlata",
        ], .weekday(3)),
        ([
            "يوم الاربع", "يوم الاربعا", "الاربعاء", "الاربعه يوم", "el arba3", "el arb3", "arb3", "el arbaa", "arbaa", "el larba",
            "larba", "el arbi3a", "arbi3a", "el arba", "el arbe3", "arbe3", "larb3a", "l arb3a", "el arb3a", "arb3a", "el larb3a", "l'arb3a",
        ], .weekday(4)),
        ([
            "الخميس", "لخميس", "el khamis", "khamis", "el 5amis", "5amis", "el khmis", "khmis", "l5mis", "el 5mis", "5mis", "el khamees",
            "el 5amis", "el kamis",
            // Maghrebi vowels: "el khemis", "lkhmis", "nhar el khemis".
            "el khemis", "khemis", "lkhemis", "l khemis", "lkhmis", "l khmis", "el 5emis", "5emis", "el khmiss", "l5emis",
        ], .weekday(5)),
        ([
            "الجمعه", "الجمعة", "لجمعه", "el jem3a", "jem3a", "el jom3a", "el jum3a", "el jam3a", "jam3a", "el joma", "joma", "el jemaa", "jemaa",
            "el gom3a", "el jumaa", "ljem3a", "el jomaa", "jomaa", "el djem3a", "djem3a", "ejjem3a", "ej-jem3a", "l jem3a", "el jem3a",
        ], .weekday(6)),
        (["السبت", "سبت", "el sebt", "sebt", "es-sebt", "essebt", "lsebt", "el sabt", "sabt", "es sebt"], .weekday(7)),
        ([
            "week", "a week on", "a week from", "week on", "بعد الجاي", "اللي بعده", "اللي بعد الجاي", "الي بعده", "after next", "ba3d el jay",
            "elli ba3do", "illi ba3do",
        ], .weekLater),
        ([
            "عقب باجر", "عقب بكره", "عقب بكرا", "عقب باكر", "بعد باكر", "بعدبكره", "بعد بكرة", "ba3d bokra", "ba3d bukra", "ba3d bacher",
            "3ugub bachir", "3igb bachir", "3gb bachir", "3ugb bacher", "3ugb bachir", "3ugb baachir", "3gub bacher", "3gub bachir",
            "3ugub bacher", "3igb bacher", "3ugb bukra", "ba3d baker", "ba3d ghodwa", "بعد غدوه", "بعد غدوة", "ba3d ghedwa", "after tomorrow",
        ], .relativeDay(2)),
        ([
            "غدوه", "غدوة", "ghodwa", "ghedwa", "ghadwa", "bokrah", "bukrah", "bokra el sob7", "bachir", "bacher", "baacher", "bachar", "tomorow",
            "tomrw", "tmw", "2moro", "2morrow", "tomoro", "tmro",
        ], .relativeDay(1)),
        ([
            "النهارده", "النهاردا", "اليوم ده", "الليلادي", "el naharda", "ennaharda", "naharda", "el yoom", "lyoum", "lyom", "el lyoum",
            "had nhar", "hadi nhar", "هاد النهار", "اليوما",
        ], .relativeDay(0)),
        (["الليلاديه", "الليلادي", "el leila", "el leilah", "el lila", "had lila", "هاد الليله", "this eve"], .tonight),
        // French, as the Maghreb mixes it in.
        (["demain", "dmain"], .relativeDay(1)),
        (["après-demain", "apres-demain", "après demain", "apres demain"], .relativeDay(2)),
        (["aujourd'hui", "aujourdhui", "auj"], .relativeDay(0)),
        (["ce soir", "csoir"], .tonight),
        (["dimanche"], .weekday(1)),
        (["lundi"], .weekday(2)),
        (["mardi"], .weekday(3)),
        (["mercredi"], .weekday(4)),
        (["jeudi"], .weekday(5)),
        (["vendredi"], .weekday(6)),
        (["samedi"], .weekday(7)),
        (["prochain", "prochaine"], .next),
        (["le matin", "matin"], .partOfDay(.morning)),
        (["le soir", "soir"], .partOfDay(.evening)),
        (["on se voit", "ça te dit", "ca te dit", "tu viens", "on y va", "on part"], .invite),
        (["رمضان", "ramadan", "ramadhan", "ramzan", "ramazan"], .hijriMonth(9)),
        (["شوال", "shawwal", "shawal"], .hijriMonth(10)),
        (["ذو الحجه", "ذي الحجه", "dhul hijjah", "dhul-hijjah", "zul hijjah"], .hijriMonth(12)),
        // Invitations the core list lacks.
        ([
            "any chance", "any chance of", "fancy a", "up for a", "keen for", "keen to", "keen?", "you keen", "wanna go", "want to go",
            "shall i", "should i book", "let's meet", "lets meet", "meet me", "join me", "come along", "you around", "are you around",
            "you free", "free?", "would you be free", "would you be up for", "how does", "does that work", "does it work", "works for you",
            "work for you", "good for you", "ok for you", "okay for you", "you good for", "are we on", "we on for", "still good for",
            "ممكن نتقابل", "ممكن نطلع", "نتقابل", "نتلاقا", "نلتقى", "تيجي معايا", "تيجي", "تيجى", "تجي معنا", "تجي معانا", "تيجي نخرج", "نخرج",
            "نطلع سوا", "تطلع", "تطلعي", "تحب نروح", "تحبي نروح", "بدك", "بدك تيجي", "بتيجي", "بتجي", "بتجي معي", "شو بدك", "شو قولك", "شو رأيك",
            "يلا نطلع", "يلا نروح", "نروحو", "نمشيو", "نتلاقاو", "نخرجو", "تجي معايا", "واش تجي", "واش نتلاقاو", "اش رايك", "اشنو رايك",
            "شنو رايك", "شنو رأيك", "شلونك ويانا", "تجي ويانا", "نروح سوه", "نطلع سوه", "تبي نطلع", "تبين", "تبون", "نبيك", "ودك نطلع",
            "n2abel", "net2abel", "nit2abel", "net2ablo", "n5rog", "nokhrog", "nkhrog", "teegy", "tigi", "tiji ma3na", "btiji", "bteji", "baddak",
            "baddik", "shu ra2yik", "sho ra2yik", "nmchiw", "n5erjou", "ntla9aw", "nitla2a", "netla2a", "tabi", "tibi",
            "tbi", "n6la3", "nitla3", "nrou7", "nro7", "nrooh", "yalla nro7", "yalla n6la3", "tiji?", "ta3ali", "t3al", "t3ali", "nakol", "nakl",
            "nshrab", "nel3ab", "nel3ab?", "خلها", "خليها", "خليه", "خله", "خلوها", "make it", "let's make it", "lets make it", "khalliha",
            "5aliha", "5alliha", "5leha", "on part",
        ], .invite),
        (["ع", "ع الساعه", "عالساعه", "à", "vers", "a las"], .clockLead),
        (["الا تلت", "الا تلث", "الا ثلت"], .thirdTo),
        (["وتلت", "و تلت", "وثلت"], .thirdPast),
        (["تمانه", "تمنه", "tmanya", "tamanye"], .numberWord(8)),
        (["سبعه", "سابعه", "sab3a"], .numberWord(7)),
        (["تسعه", "tis3a"], .numberWord(9)),
        (["بتصل", "باتصل", "راح اتصل", "بدق عليك", "اتصل عليك", "بتصل عليك", "ادق عليك", "نتكلم", "نتصل", "b2tesel", "bat9el", "bkalmak"], .activity(Activity("Call", "مكالمة", .none, weight: 2))),
        ([
            // "can't" about something other than coming: no refusal.
            "can't park", "cant park", "can't believe", "cant believe", "can't stop", "cant stop", "can't remember", "cant remember",
            "can't find", "cant find", "can't sleep", "cant sleep", "can't decide", "cant decide", "can't stand", "cant stand", "can't stay long",
            "can't complain", "can't hear", "can't imagine", "can't eat", "can't drink", "can't drive",
            "can't be late", "cant be late", "can't miss", "cant miss", "can't say no", "cant say no", "couldn't be happier", "can't go wrong",
            "عندي وقت", "عندي فكره", "عندي اقتراح", "عندي خبر", "عندي شويه وقت", "عندي شوي وقت", "عندي وقت فاضي", "i have time",
            "i'm free", "im free", "3andi wa2t", "3indi wa2t",
        ], .neutral),
        ([
            "ne2agel", "n2agel", "n2ajjel", "ne2ajel", "nageel", "push the", "push it", "move it", "put it off", "push to",
            "نأجلها", "نأخرها", "نأخر", "ناخر", "نأجل", "نبدل الموعد", "نلغيها", "تتلغى", "اتلغى", "اتلغت", "تأجلت", "اتأجل",
            "اتأجلت", "نأجلو", "نبدلو", "ملغية", "called it off", "it's off", "its off", "is off", "cancel it",
        ], .cancel),
        ([
            // Activities the core list lacks.
            "climbing", "bouldering", "badminton", "cricket", "hockey", "skating", "karting", "go karting", "paintball", "escape room",
            "quiz", "pub quiz", "trivia", "karaoke", "bowling", "snorkelling", "snorkeling", "diving", "kayak", "kayaking", "sailing", "horse riding",
            "kites", "kite", "picnic", "walk", "ramble", "parkrun", "koshary", "كشري", "فول", "fuul", "ful", "مسخن", "منسف", "mansaf", "كنافه",
            "knafeh", "kunafa", "كباب", "kebab", "مشويات", "grill", "curry", "biryani", "بيريانى", "برياني", "dim sum", "tapas", "roast", "sunday roast",
            "high tea", "afternoon tea", "دجاج", "سمك", "fish", "seafood",
        ], .activity(Activity("Outing", "طلعة", .none, weight: 2))),
        ([
            "naming ceremony", "ceremony", "aqeeqah", "aqiqah", "عقيقه", "العقيقه", "nikkah", "nikah", "walima", "mehndi", "engagement", "خطوبه",
            "الخطوبه", "خطبه", "ملكه", "عرس", "فرح", "الفرح", "حنه", "الحنه", "عزاء", "العزاء", "تعزيه",
        ], .activity(Activity("Celebration", "مناسبة", .evening, weight: 3))),
    ]
}
