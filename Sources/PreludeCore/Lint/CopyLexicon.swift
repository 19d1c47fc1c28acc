/// The words and phrases the copy rules look for, per language, as regular-expression fragments.
///
/// Latin-script fragments are matched case-insensitively between word boundaries; CJK fragments anywhere.
/// The reference gives English starting points; the other languages are our translations of the same intent,
/// written from the wording iOS itself uses in each language where there is one (system alert buttons). Where each
/// language's lists come from is in docs/lint.md, "Word lists and their sources".
package enum CopyLexicon {
    /// PA-2 allowlist: labels like "Continue" or "Next" (compared whole and case-insensitively, after trimming).
    package static func continueLabels(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: ["Continue", "Next"]
        case .french: ["Continuer", "Suivant"]
        case .german: ["Weiter", "Fortfahren"]
        case .spanish: ["Continuar", "Siguiente"]
        case .portuguese: ["Continuar", "Seguinte", "Próximo", "Avançar"]
        case .italian: ["Continua", "Avanti", "Successivo"]
        case .korean: ["계속", "다음", "계속하기"]
        case .russian: ["Продолжить", "Далее"]
        case .dutch: ["Ga door", "Doorgaan", "Volgende", "Verder"]
        case .turkish: ["Devam", "Devam Et", "Sonraki", "İleri"]
        case .japanese: ["続ける", "続行", "次へ"]
        case .simplifiedChinese: ["继续", "下一步"]
        case .traditionalChinese: ["繼續", "下一步"]
        }
    }

    /// PA-2 deny list: labels that suggest granting on the custom screen.
    package static func grantWords(_ language: LintLanguage) -> [String] {
        switch language {
        case .english:
            [
                #"allow"#, #"accept"#, #"grant"#, #"agree"#, #"approve"#, #"enable"#, #"turn on"#,
                #"give access"#, #"yes"#, #"ok(ay)?"#,
            ]
        case .french:
            [
                #"autoris\w*"#, #"accept\w*"#, #"permett\w*"#, #"activ\w*"#, #"accord\w*"#, #"oui"#,
                #"d['’]accord"#, #"ok"#,
            ]
        case .german:
            [
                #"erlaub\w*"#, #"zulassen"#, #"akzeptier\w*"#, #"zustimm\w*"#, #"aktivier\w*"#, #"gewähr\w*"#,
                #"ja"#, #"ok"#,
            ]
        case .spanish:
            [
                #"permit\w*"#, #"acept\w*"#, #"autoriz\w*"#, #"activ\w*"#, #"conced\w*"#, #"sí"#,
                #"de acuerdo"#, #"ok"#,
            ]
        case .portuguese:
            [#"permit\w*"#, #"aceit\w*"#, #"autoriz\w*"#, #"ativ\w*"#, #"conced\w*"#, "concordo", "sim", "ok"]
        case .italian:
            [
                #"consent\w*"#, #"accett\w*"#, #"autorizz\w*"#, #"attiv\w*"#, #"abilit\w*"#, "concedi", "sì", "va bene",
                "ok",
            ]
        case .korean: ["허용", "승인", "동의", "수락", "활성화", "켜기", "확인"]
        case .russian: [#"разреш\w*"#, #"приня\w*"#, #"принима\w*"#, #"соглас\w*"#, #"включ\w*"#, "да", "ок", "хорошо"]
        case .dutch:
            [
                #"sta( \w+)? toe"#, "toestaan", #"accepteer\w*"#, "akkoord", "inschakelen", #"activeer\w*"#,
                "geef toegang", "ja", "ok",
            ]
        case .turkish: [#"[iİ]zin ver\w*"#, #"kabul\w*"#, #"onayla\w*"#, #"etkinleştir\w*"#, "aç", "evet", "tamam"]
        case .japanese: ["許可", "承認", "同意", "有効に", "オンに", "はい", "OK"]
        case .simplifiedChinese: ["允许", "同意", "接受", "授权", "开启", "启用", "打开", "好的"]
        case .traditionalChinese: ["允許", "同意", "接受", "授權", "開啟", "啟用", "打開", "好的"]
        }
    }

    /// PA-3: labels for leaving the priming screen without the system alert.
    package static func dismissWords(_ language: LintLanguage) -> [String] {
        switch language {
        case .english:
            [
                #"not now"#, #"cancel"#, #"close"#, #"skip"#, #"(maybe )?later"#, #"no,? thanks"#,
                #"dismiss"#, #"don['’]t allow"#,
            ]
        case .french:
            [
                #"plus tard"#, #"pas maintenant"#, #"annuler"#, #"fermer"#, #"ignorer"#, #"passer"#,
                #"non,? merci"#,
            ]
        case .german: [#"später"#, #"nicht jetzt"#, #"abbrechen"#, #"schließen"#, #"überspringen"#, #"nein,? danke"#]
        case .spanish: [#"ahora no"#, #"más tarde"#, #"cancelar"#, #"cerrar"#, #"omitir"#, #"no,? gracias"#]
        case .portuguese:
            ["agora não", "mais tarde", "cancelar", "fechar", "ignorar", "pular", "não,? obrigad[oa]", "não permitir"]
        case .italian:
            ["non ora", "più tardi", "annulla", "chiudi", "salta", "ignora", "no,? grazie", "non consentire"]
        case .korean: ["나중에", "지금 안 함", "취소", "닫기", "건너뛰기", "괜찮습니다", "허용 안 함"]
        case .russian: ["не сейчас", "позже", #"отмен\w*"#, "закрыть", "пропустить", "нет,? спасибо", "не разрешать"]
        case .dutch:
            [
                "niet nu", "later", "annuleer", "annuleren", "sluit", "sluiten", "sla over", "overslaan",
                "nee,? bedankt", "sta niet toe",
            ]
        case .turkish:
            [
                "şimdi değil", "daha sonra", "sonra", "vazgeç", "[iİ]ptal", "kapat", "atla", "hayır,? teşekkürler",
                "[iİ]zin verme",
            ]
        case .japanese: ["後で", "あとで", "今はしない", "キャンセル", "閉じる", "スキップ"]
        case .simplifiedChinese: ["以后再说", "稍后", "暂不", "取消", "关闭", "跳过", "不用了"]
        case .traditionalChinese: ["以後再說", "稍後", "暫不", "取消", "關閉", "跳過", "不用了"]
        }
    }

    /// PA-4: echoes of the system alert's title and buttons.
    package static func systemAlertEchoes(_ language: LintLanguage) -> [String] {
        switch language {
        case .english:
            [
                #"would like to (access|use)"#, #"allow .{0,40}to (access|use|track)"#, #"don['’]t allow"#,
                #"ask app not to track"#, #"allow while using"#, #"allow once"#, #"allow tracking"#,
            ]
        case .french:
            [
                #"(souhaite|voudrait|aimerait) (accéder|utiliser)"#, #"ne pas autoriser"#,
                #"demander à l['’]app(li)? de ne pas (me )?suivre"#, #"autoriser (le suivi|une fois)"#,
                #"autoriser lorsque l['’]app est active"#,
            ]
        case .german:
            [
                #"möchte auf .{0,40}zugreifen"#, #"nicht erlauben"#, #"app bitten, nicht zu tracken"#,
                #"tracking erlauben"#, #"einmal erlauben"#,
            ]
        case .spanish:
            [
                #"(quiere|desea) (acceder|usar)"#, #"no permitir"#, #"pedir a la app que no (me )?rastree"#,
                #"permitir (el )?rastreo"#, #"permitir una vez"#,
            ]
        case .portuguese:
            [
                "(deseja|gostaria de) (acessar|aceder|usar)", "não permitir",
                "pedir (ao|à) (app|aplicativo) para não rastrear", "permitir (o )?rastreamento", "permitir uma vez",
                "permitir durante o uso",
            ]
        case .italian:
            [
                "vorrebbe (accedere|usare)", "non consentire", "chiedi all['’]app di non tracciare",
                "consenti (il )?tracciamento", "consenti una volta", "consenti mentre usi",
            ]
        case .korean: ["접근하려고 합니다", "허용 안 함", "추적 금지 요청", "추적 허용", "한 번 허용", "사용하는 동안 허용"]
        case .russian:
            [
                "запрашивает доступ", "не разрешать", "попросить приложение не отслеживать", "разрешить отслеживание",
                "разрешить один раз", "при использовании приложения",
            ]
        case .dutch:
            [
                "wil toegang", "sta niet toe", "vraag app om niet te volgen", "sta volgen toe", "sta eenmaal toe",
                "bij gebruik van app",
            ]
        case .turkish:
            [
                "erişmek istiyor", "[iİ]zin verme", "uygulamadan [iİ]zleme yapmamasını [iİ]ste",
                "[iİ]zlemeye [iİ]zin ver", "bir kez [iİ]zin ver", "uygulamayı kullanırken",
            ]
        case .japanese:
            [
                "アクセスを求めています", "トラッキングしないように", "許可しない", "1度だけ許可", "一度だけ許可",
                "トラッキングを許可",
            ]
        case .simplifiedChinese: ["想访问", "要求 ?App ?不跟踪", "不允许", "允许跟踪", "允许一次"]
        case .traditionalChinese: ["想要取用", "要求 ?App ?不要追蹤", "不允許", "允許追蹤", "允許一次"]
        }
    }

    /// PA-5: cues pointing at the system alert's Allow button.
    package static func allowCues(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: [#"(tap|press|choose|select|click)( on)? ["“]?allow"#]
        case .french: [#"(appuyez|touchez|choisissez|sélectionnez|cliquez) sur [«"“]? ?autoriser"#]
        case .german: [#"(tippe|tippen sie|wähle|wählen sie) (auf )?[„"]?erlauben"#]
        case .spanish: [#"(toca|pulsa|elige|selecciona) ["“]?permitir"#]
        case .portuguese: [#"(toque|toca|clique|escolha|selecione) (em )?["“]?permitir"#]
        case .italian: [#"(tocca|premi|scegli|seleziona) (su )?["“]?consenti"#]
        case .korean: ["['‘]?허용['’]?(을|를)? ?(탭|누르|선택)", "허용 버튼"]
        case .russian: [#"(нажмите|выберите|коснитесь) (на )?[«"“]?разрешить"#]
        case .dutch: [#"(tik op|kies|selecteer|klik op) ["“‘]?sta toe"#]
        case .turkish: [#"["“‘]?[iİ]zin ver["”’]?(’e|\'e| seçeneğine| düğmesine) (dokun|bas)\w*"#]
        case .japanese: ["「許可」をタップ", "「許可」を選", "許可をタップ"]
        case .simplifiedChinese: ["点击“?允许", "选择“?允许"]
        case .traditionalChinese: ["點擊「?允許", "點選「?允許", "選擇「?允許"]
        }
    }

    /// PA-5: arrows and pointing emoji that annotate the alert behind the screen (any language).
    package static let pointingGlyphs: [Character] = ["👇", "⬇", "↓", "👉", "➡", "⤵", "☝", "👆"]

    /// PA-6: incentives for granting.
    package static func incentives(_ language: LintLanguage) -> [String] {
        switch language {
        case .english:
            [
                #"free"#, #"rewards?"#, #"bonus(es)?"#, #"coins?"#, #"credits?"#, #"discounts?"#, #"\d+ ?% off"#,
                #"unlock"#, #"earn"#, #"win"#, #"gifts?"#, #"prizes?"#, #"points"#,
            ]
        case .french:
            [
                #"gratuit\w*"#, #"récompenses?"#, #"bonus"#, #"pièces"#, #"crédits?"#, #"réductions?"#,
                #"remises?"#, #"débloqu\w*"#, #"gagn\w*"#, #"cadeaux?"#, #"offerts?"#,
            ]
        case .german:
            [
                #"gratis"#, #"kostenlos\w*"#, #"belohnung\w*"#, #"bonus"#, #"münzen"#, #"rabatt\w*"#,
                #"freischalt\w*"#, #"gewinn\w*"#, #"geschenk\w*"#,
            ]
        case .spanish:
            [
                #"gratis"#, #"gratuit\w*"#, #"recompensas?"#, #"bono"#, #"monedas"#, #"créditos?"#,
                #"descuentos?"#, #"desbloque\w*"#, #"gan(a|ar|as)"#, #"regalos?"#,
            ]
        case .portuguese:
            [
                "grátis", #"gratuit\w*"#, "recompensas?", "bônus", "bónus", "moedas", "créditos?", "descontos?",
                #"desbloque\w*"#, #"ganh\w*"#, "presentes?", "brindes?", "pontos",
            ]
        case .italian:
            [
                "gratis", #"gratuit\w*"#, #"ricompens\w*"#, "premio", "bonus", "monete", "crediti", #"scont\w*"#,
                #"sblocc\w*"#, "vinci", "vincere", #"regal\w*"#, "punti",
            ]
        case .korean: ["무료", "보상", "보너스", "코인", "포인트", "할인", "쿠폰", "선물", "경품", "적립", "잠금 해제"]
        case .russian:
            [
                #"бесплатн\w*"#, #"наград\w*"#, #"бонус\w*"#, #"монет\w*"#, #"кредит\w*"#, #"скидк\w*"#,
                #"разблокир\w*"#, #"выигр\w*"#, #"подар\w*"#, "баллы", "очки",
            ]
        case .dutch:
            [
                "gratis", #"beloning\w*"#, #"bonus\w*"#, "munten", "tegoed", #"korting\w*"#, #"ontgrendel\w*"#,
                #"verdien\w*"#, "winnen", #"cadeau\w*"#, "punten",
            ]
        case .turkish:
            [
                "ücretsiz", "bedava", #"ödül\w*"#, #"bonus\w*"#, #"jeton\w*"#, #"kredi\w*"#, #"[iİ]ndirim\w*"#,
                #"kilidini aç\w*"#, #"kazan\w*"#, #"hediye\w*"#, #"puan\w*"#,
            ]
        case .japanese:
            [
                "無料", "特典", "報酬", "ボーナス", "コイン", "ポイント", "割引", "クーポン", "プレゼント",
                "もらえる",
            ]
        case .simplifiedChinese:
            [
                "免费", "奖励", "奖金", "金币", "积分", "折扣", "优惠", "红包", "解锁", "赢取", "礼品",
                "礼物",
            ]
        case .traditionalChinese:
            [
                "免費", "獎勵", "獎金", "金幣", "積分", "折扣", "優惠", "紅包", "解鎖", "贏取", "禮品",
                "禮物",
            ]
        }
    }

    /// PA-7: withholding functionality or gating the app on consent.
    package static func gating(_ language: LintLanguage) -> [String] {
        switch language {
        case .english:
            [
                #"to (continue|keep) using"#, #"required"#, #"must (allow|accept|enable)"#,
                #"needs? to (allow|accept|enable)"#, #"(won['’]t|will not|doesn['’]t|does not) work"#,
                #"(can['’]t|cannot|can not) (use|continue)"#, #"(unless|until|only if) you (allow|accept)"#,
            ]
        case .french:
            [
                #"pour continuer à utiliser"#, #"(est |sont )?(requis|requise|obligatoire)s?"#,
                #"vous devez (autoriser|accepter|activer)"#, #"ne fonctionnera pas"#,
                #"(impossible|ne pourrez pas) (de )?(continuer|utiliser)"#, #"(sauf|tant) que vous"#,
            ]
        case .german:
            [
                #"um .{0,30}weiter(hin)? zu (nutzen|verwenden)"#, #"erforderlich"#,
                #"(müssen|musst) .{0,30}(erlauben|zulassen)"#, #"funktioniert nicht"#,
            ]
        case .spanish:
            [
                #"para (seguir|continuar) usando"#, #"(es )?obligatori[oa]"#, #"(debes|tienes que) permitir"#,
                #"no funcionará"#, #"no (podrás|puedes) (usar|continuar)"#,
            ]
        case .portuguese:
            [
                "para continuar (a usar|usando)", "(é )?obrigatóri[oa]", "(precisa|deve|tem que) permitir",
                "não (vai )?funcionar(á)?", "não (poderá|pode) (usar|continuar)",
            ]
        case .italian:
            [
                "per continuare a usare", "(è )?obbligatori[oa]", "(devi|è necessario) consentire", "non funzionerà",
                "non (potrai|puoi) (usare|continuare)",
            ]
        case .korean: ["필수", "허용하지 않으면", "허용해야", "사용할 수 없습니다", "이용할 수 없습니다", "계속 사용하려면"]
        case .russian:
            [
                "чтобы продолжить (пользоваться|использовать)", #"обязательн\w*"#,
                "(необходимо|нужно|должны) разрешить", "не будет работать",
                "не (сможете|можете) (пользоваться|использовать|продолжить)",
            ]
        case .dutch:
            [
                "om .{0,30}te blijven gebruiken", "verplicht", "(moet|moeten) .{0,30}toestaan", "werkt niet",
                "(kun|kunt) .{0,20}niet (gebruiken|verder)",
            ]
        case .turkish:
            [
                "kullanmaya devam etmek için", "zorunlu", "gerekli", #"[iİ]zin vermeniz gerek\w*"#, "çalışmaz",
                "kullanamazsınız",
            ]
        case .japanese:
            [
                "必須", "許可しないと", "許可しない限り", "利用できません", "使用できません", "続けて利用するには",
                "引き続き利用するには",
            ]
        case .simplifiedChinese: ["必须允许", "否则无法", "才能继续使用", "必需", "无法使用", "不能使用"]
        case .traditionalChinese: ["必須允許", "否則無法", "才能繼續使用", "必需", "無法使用", "不能使用"]
        }
    }

    /// PS-3: passive constructions (where detectable).
    package static func passive(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: [#"(is|are|was|were|be|been|being) (\w+ly )?\w+(ed|en)"#]
        case .french: [#"(est|sont|sera|seront|été) (\w+ )?\w+(é|ée|és|ées)"#]
        case .german: [#"(wird|werden|wurde|wurden) .{0,40} ge\w+(t|en)"#]
        case .spanish: [#"(es|son|será|serán|fue|fueron) \w+(ado|ada|ados|adas|ido|ida|idos|idas)"#]
        case .portuguese: [#"(é|são|será|serão|foi|foram) \w+(ado|ada|ados|adas|ido|ida|idos|idas)"#]
        case .italian:
            [#"(è|sono|sarà|saranno|viene|vengono) (stat[oaie] )?\w+(ato|ata|ati|ate|uto|uta|uti|ute|ito|ita|iti|ite)"#]
        case .korean: []
        case .russian: [#"(был|была|было|были|будет|будут) \w+(ан|ян|ен|ён|т)(а|о|ы)?"#]
        case .dutch: [#"(wordt|worden|werd|werden) .{0,40}ge\w+(d|t|en)"#]
        case .turkish: []
        case .japanese: []
        // 被 marks the passive in Chinese.
        case .simplifiedChinese, .traditionalChinese: ["被"]
        }
    }

    /// PS-4: a bare imperative at the start of the text.
    package static func bareImperatives(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: [#"^(please )?(turn on|allow|enable|grant|give)"#]
        case .french: [#"^(veuillez |merci d['’])?(autoris|activ|accord|donn)\w*"#]
        case .german: [#"^(bitte )?(erlaube|aktiviere|gewähre|gib)"#]
        case .spanish: [#"^(por favor,? )?(permite|activa|concede|otorga|da)"#]
        case .portuguese: ["^(por favor,? )?(permita|ative|conceda|dê|ligue)"]
        case .italian: ["^(per favore,? |si prega di )?(consenti|attiva|concedi|dai|abilita)"]
        case .korean: ["^.{0,20}(허용|켜|활성화)해 ?주세요"]
        case .russian: ["^(пожалуйста,? )?(разрешите|включите|предоставьте|дайте)"]
        case .dutch: ["^(alsjeblieft,? )?(sta|schakel|geef|activeer)"]
        case .turkish: ["^(lütfen )?.{0,30}(izin verin|etkinleştirin)"]
        case .japanese: ["^(.{0,20})を(許可|オンに|有効に)してください"]
        case .simplifiedChinese: ["^请(允许|开启|打开|授权)"]
        case .traditionalChinese: ["^請(允許|開啟|打開|授權)"]
        }
    }

    /// PS-5: vague purposes.
    package static func vague(_ language: LintLanguage) -> [String] {
        switch language {
        case .english:
            [
                #"better (experience|service)"#, #"improve (your|the) experience"#, #"app functionality"#,
                #"for (the )?app to work"#, #"^(this )?app (needs|requires) (access|permission)"#,
                #"needs your permission"#,
            ]
        case .french:
            [
                #"meilleure expérience"#, #"(améliorer|optimiser) (votre|l['’])expérience"#,
                #"fonctionnement de l['’]app\w*"#,
                #"^(cette )?app(lication)? a besoin (d['’]accès|de votre autorisation)"#,
            ]
        case .german:
            [
                #"bessere[sn]? (erlebnis|erfahrung|service)"#, #"(erlebnis|erfahrung) (zu )?verbessern"#,
                #"^(diese )?app (braucht|benötigt) (zugriff|berechtigung)"#,
            ]
        case .spanish:
            [
                #"mejor experiencia"#, #"mejorar (tu|su|la) experiencia"#, #"funcionamiento de la app"#,
                #"^(esta )?app necesita (acceso|permiso)"#,
            ]
        case .portuguese:
            [
                "melhor experiência", "melhorar (a |sua )?experiência", "funcionamento do app",
                "^(este )?(app|aplicativo) precisa de (acesso|permissão)",
            ]
        case .italian:
            [
                "migliore esperienza", "esperienza migliore", "migliorare (la tua |l['’])esperienza",
                "funzionamento dell['’]app",
                "^(questa )?app (ha bisogno|necessita) (di accesso|dell['’]accesso|del permesso)",
            ]
        case .korean: ["더 나은 경험", "경험을 개선", "경험 향상", "서비스 향상", "^이? ?앱은? .{0,10}(접근|권한)이 필요합니다"]
        case .russian:
            [
                #"(лучш\w*|улучшенн\w*) (опыт|впечатлени\w*)"#, "улучшить (ваш |ваши )?(опыт|впечатления)",
                "работы приложения", "^(этому )?приложению (нужен|требуется) (доступ|разрешение)",
            ]
        case .dutch:
            [
                "betere (ervaring|service)", "(ervaring|ervaringen) (te )?verbeteren", "werking van de app",
                "^(deze )?app (heeft|vraagt) (toegang|toestemming) nodig",
            ]
        case .turkish:
            [
                "daha iyi (bir )?deneyim", #"deneyimi(ni|nizi)? iyileştir\w*"#, "uygulamanın çalışması",
                "^(bu )?uygulamanın .{0,10}(erişime|izne) ihtiyacı var",
            ]
        case .japanese: ["より良い体験", "体験を向上", "エクスペリエンスの向上", "サービス向上", "^このアプリは.{0,10}アクセスが必要です。?$"]
        case .simplifiedChinese: ["更好的体验", "提升体验", "改善体验", "优化体验", "^本?应用需要(访问|权限)"]
        case .traditionalChinese: ["更好的體驗", "提升體驗", "改善體驗", "優化體驗", "^本?(應用|App)需要(存取|取用|權限)"]
        }
    }

    /// PS-6: a text that only names the resource.
    package static func restatements(_ language: LintLanguage) -> [String] {
        let resourcesEn = #"(camera|location|microphone|photos|contacts|calendars?|reminders|bluetooth|motion)"#
        return switch language {
        case .english: [#"^(to )?(use|access) (the |your )?"# + resourcesEn + #"\.?$"#]
        case .french:
            [
                #"^(pour )?(utiliser|accéder à) (la |le |les |l['’]|votre |vos )?"#
                    + #"(caméra|appareil photo|position|localisation|micro(phone)?|photos|contacts|calendrier)\.?$"#
            ]
        case .german:
            [
                #"^(um )?(die |den |deine |ihre )?(kamera|standort|mikrofon|fotos|kontakte)"#
                    + #"( zu)? (nutzen|verwenden)\.?$"#
            ]
        case .spanish:
            [
                #"^(para )?(usar|acceder a) (la |el |los |las |tu |tus )?"#
                    + #"(cámara|ubicación|micrófono|fotos|contactos)\.?$"#
            ]
        case .portuguese:
            [
                #"^(para )?(usar|acessar) (a |o |as |os |sua |seu |suas |seus )?(câmera|localização|microfone|fotos|contatos|calendário)\.?$"#
            ]
        case .italian:
            [
                #"^(per )?(usare|accedere a(lla|l|i|gli)?) ?(la |il |i |le |tua |tuo )?(fotocamera|posizione|microfono|foto|contatti|calendario)\.?$"#
            ]
        case .korean: [#"^(카메라|위치|마이크|사진|연락처|캘린더)(를|을|에)? ?(사용|접근)(합니다|하기 위해)?\.?$"#]
        case .russian:
            [
                #"^(чтобы )?(использовать|получить доступ к) (камер\w*|геопозици\w*|местоположени\w*|микрофон\w*|фото\w*|контакт\w*|календар\w*)\.?$"#
            ]
        case .dutch:
            [
                #"^(om )?(je |de |uw )?(camera|locatie|microfoon|foto['’]s|contacten|agenda) (te )?(gebruiken|openen)\.?$"#
            ]
        case .turkish: [#"^(kamera|konum|mikrofon|fotoğraf|kişi|takvim)\w*( kullanmak| erişmek)( için)?\.?$"#]
        case .japanese: ["^(カメラ|位置情報|マイク|写真|連絡先|カレンダー)(を使用|にアクセス|を利用)(します|するため)?。?$"]
        case .simplifiedChinese: ["^(使用|访问)(相机|位置|麦克风|照片|通讯录|日历)。?$"]
        case .traditionalChinese: ["^(使用|存取|取用)(相機|位置|麥克風|照片|通訊錄|行事曆)。?$"]
        }
    }

    /// PS-7: a purpose clause (to, so, for, when + verb).
    package static func purposeClause(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: [#"(to|so|for|when|because|while|if) \w+"#]
        case .french: [#"(pour|afin|quand|lorsque|parce|si) \w+"#]
        case .german: [#"(um|damit|wenn|weil|für) \w+"#]
        case .spanish: [#"(para|cuando|porque|si) \w+"#]
        case .portuguese: [#"(para|quando|porque|se|assim) \w+"#]
        case .italian: [#"(per|quando|perché|se|così) \w+"#]
        case .korean: ["위해", "하려면", "할 수 있", "때", "도록", "므로"]
        case .russian: [#"(чтобы|для|когда|потому|если) \w+"#]
        case .dutch: [#"(om|zodat|wanneer|als|omdat|voor) \w+"#]
        case .turkish: ["için", "zaman", "böylece", "çünkü", #"\w+(ebil|abil)\w*"#]
        case .japanese: ["ため", "ので", "ように", "とき", "時", "場合", "して", "でき"]
        case .simplifiedChinese: ["以便", "用于", "为了", "以", "来", "时", "可以", "能"]
        case .traditionalChinese: ["以便", "用於", "為了", "以", "來", "時", "可以", "能"]
        }
    }

    /// PS-9: superlatives and promotional words.
    package static func marketing(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: [#"best"#, #"amazing"#, #"awesome"#, #"#1"#, #"incredible"#]
        case .french: [#"meilleur\w*"#, #"incroyable"#, #"génial\w*"#, #"n° ?1"#]
        case .german: [#"beste\w*"#, #"unglaublich\w*"#, #"großartig\w*"#]
        case .spanish: [#"mejor(es)?"#, #"increíble"#, #"asombros[oa]"#]
        case .portuguese: ["melhor(es)?", "incrível", "fantástic[oa]", "nº ?1"]
        case .italian: [#"miglior\w*"#, #"incredibil\w*"#, #"fantastic\w*"#, #"n\. ?1"#]
        case .korean: ["최고", "최강", "놀라운", "1위"]
        case .russian: [#"лучш\w*"#, #"невероятн\w*"#, #"потрясающ\w*"#, "№ ?1"]
        case .dutch: ["beste", #"geweldig\w*"#, #"ongelooflijk\w*"#, #"nr\. ?1"#]
        case .turkish: ["en iyi", "harika", "inanılmaz", "muhteşem", "1 numara"]
        case .japanese: ["最高", "最強", "No.1", "圧倒的"]
        case .simplifiedChinese: ["最好", "最棒", "第一", "超赞"]
        case .traditionalChinese: ["最好", "最棒", "第一", "超讚"]
        }
    }

    /// DN-2: sending people to Settings (the app), as opposed to mentioning a setting.
    package static func toSettings(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: [#"(in|open|go to|visit|from) (the )?settings"#, #"settings ?(>|›|→)"#]
        case .french: [#"(dans|ouvr\w*|accéde\w*|allez dans) (les |l['’]app )?(réglages|paramètres)"#]
        case .german: [#"(in den|öffne\w*) einstellungen"#]
        case .spanish: [#"(en|abre|ve a) (los )?(ajustes|configuración)"#]
        case .portuguese: ["(em|nos|nas|abra|vá para|acesse) (os |as )?(ajustes|configurações|definições)"]
        case .italian: ["(in|apri|vai in|vai a) impostazioni"]
        case .korean: ["설정에서", "설정을 열", "설정으로 이동", "설정 앱"]
        case .russian: [#"(в|откройте|перейдите в) «?настройк\w*"#]
        case .dutch: ["(in|open|ga naar) (de )?instellingen"]
        case .turkish: [#"ayarlar(dan|a)\w*"#, #"ayarları aç\w*"#]
        case .japanese: ["設定で.{0,12}(オン|許可|有効|変更)", "設定を開", "設定アプリ", "「設定」"]
        case .simplifiedChinese: ["(在|去|前往|打开)设置", "设置中(开启|打开|允许)"]
        case .traditionalChinese: ["(在|去|前往|打開|開啟)(設定|設置)", "(設定|設置)中(開啟|打開|允許)"]
        }
    }
}
