/// The words and phrases the copy rules look for, per language, as regular-expression fragments.
///
/// Latin-script fragments are matched case-insensitively between word boundaries; CJK fragments anywhere.
/// The reference gives English starting points; the other languages are our translations of the same intent,
/// written from the wording iOS itself uses in each language where there is one (system alert buttons).
package enum CopyLexicon {
    /// PA-2 allowlist: labels like "Continue" or "Next" (compared whole and case-insensitively, after trimming).
    package static func continueLabels(_ language: LintLanguage) -> [String] {
        switch language {
        case .english: ["Continue", "Next"]
        case .french: ["Continuer", "Suivant"]
        case .german: ["Weiter", "Fortfahren"]
        case .spanish: ["Continuar", "Siguiente"]
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
        case .japanese: ["設定で.{0,12}(オン|許可|有効|変更)", "設定を開", "設定アプリ", "「設定」"]
        case .simplifiedChinese: ["(在|去|前往|打开)设置", "设置中(开启|打开|允许)"]
        case .traditionalChinese: ["(在|去|前往|打開|開啟)(設定|設置)", "(設定|設置)中(開啟|打開|允許)"]
        }
    }
}
