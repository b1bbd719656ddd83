/// The podcast demo's tagging plan (YAML), as QA would write it for this app: which tag reaches
/// which provider with which parameters. It matches ``PodcastMappings`` except for their
/// deliberate bugs, which it catches (`tagscope demo --plan`, `tagscope validate`), and has two
/// journey rules the opening tour breaks on purpose (``journeyBugs``).
public enum DemoPlan {
  /// The plan's YAML text.
  public static let yaml: String = """
    plan: Podcasts
    version: 3
    description: Podcast app tagging plan (firebase, amplitude, piano, braze, fpti)
    screens:
      podcasts:
        properties: {}
        providers:
          firebase: {name: screen_view, params: {screen_name: show_podcasts, screen_class: PodcastsViewController}}
          amplitude: {name: Screen Viewed, params: {screen: podcasts}}
          piano: {name: page.display, params: {page: podcasts, page_chapter1: catalogue}}
          braze: none
          fpti: {name: show_podcasts, params: {e: im, category: catalogue}}
      podcastPlayer:
        properties: {}
        providers:
          firebase: {name: screen_view, params: {screen_name: show_podcast_player}}
          amplitude: {name: Screen Viewed, params: {screen: podcastPlayer}}
          piano: {name: page.display, params: {page: podcast_player, page_chapter1: catalogue}}
          braze: none
          fpti: {name: show_podcast_player, params: {e: im}}
      favorites:
        properties: {}
        providers:
          firebase: {name: screen_view, params: {screen_name: show_favorites}}
          amplitude: {name: Screen Viewed, params: {screen: favorites}}
          piano: {name: page.display, params: {page: favorites, page_chapter1: library}}
          braze: none
          fpti: {name: show_favorites, params: {e: im}}
      downloads:
        properties: {}
        providers:
          firebase: {name: screen_view, params: {screen_name: show_downloads}}
          amplitude: {name: Screen Viewed, params: {screen: downloads}}
          piano: {name: page.display, params: {page: downloads, page_chapter1: library}}
          braze: none
          fpti: {name: show_downloads, params: {e: im}}
      login:
        properties: {}
        providers:
          firebase: {name: screen_view, params: {screen_name: show_login}}
          amplitude: {name: Screen Viewed, params: {screen: login}}
          piano: {name: page.display, params: {page: login, page_chapter1: account}}
          braze: none
          fpti: {name: show_login, params: {e: im}}
      settings:
        properties: {}
        providers:
          firebase: {name: screen_view, params: {screen_name: show_settings}}
          amplitude: {name: Screen Viewed, params: {screen: settings}}
          piano: {name: page.display, params: {page: settings, page_chapter1: account}}
          braze: none
          fpti: {name: show_settings, params: {e: im}}
      onboarding:
        properties: {}
        providers:
          firebase: {name: screen_view, params: {screen_name: show_onboarding}}
          amplitude: {name: Screen Viewed, params: {screen: onboarding}}
          piano: {name: page.display, params: {page: onboarding, page_chapter1: account}}
          braze: none
          fpti: {name: show_onboarding, params: {e: im}}
    actions:
      playPodcast:
        properties: &podcast
          podcast_id: {type: string, required: true, pattern: "^p[0-9]+$"}
          podcast_title: {type: string, required: true, minLength: 1, maxLength: 100}
          podcast_duration: {type: integer, required: true, minimum: 0}
        screens: [podcasts, favorites, downloads, podcastPlayer]
        providers:
          firebase:
            - {when: {screen: podcasts}, name: play_podcast_from_podcasts, params: [podcast_title, podcast_duration]}
            - {when: {screen: favorites}, name: play_podcast_from_favorites, params: [podcast_title, podcast_duration]}
            - {when: {screen: downloads}, name: play_podcast_from_downloads, params: [podcast_title, podcast_duration]}
            - {when: {screen: podcastPlayer}, name: play_podcast_from_podcast_player, params: [podcast_title, podcast_duration]}
          amplitude: {name: Play Podcast, params: [podcast_title, podcast_duration, source_screen]}
          piano: none
          braze: {name: podcast_played, params: [podcast_title, podcast_duration]}
          fpti: {name: play_podcast, params: {e: cl}}
      pausePodcast:
        properties: *podcast
        providers:
          firebase:
            - {when: {screen: favorites}, name: pause_podcast_from_favorites, params: [podcast_title, podcast_duration]}
            - {name: pause_podcast, params: [podcast_title, podcast_duration]}
          amplitude: {name: Pause Podcast, params: [podcast_title, podcast_duration, source_screen]}
          piano: none
          braze: none
          fpti: {name: pause_podcast, params: {e: cl}}
      downloadPodcast:
        properties:
          podcast_id: {type: string, required: true, pattern: "^p[0-9]+$"}
          podcast_title: {type: string, required: true, minLength: 1, maxLength: 100}
          podcast_duration: {type: integer, required: true, minimum: 0}
          podcast_size: {type: integer, required: true, minimum: 0}
        providers:
          firebase: {name: download_podcast, params: [podcast_title, podcast_duration, podcast_size]}
          amplitude: {name: Download Podcast, params: [podcast_title]}
          piano: {name: click.download, params: {click: download_podcast}}
          braze: {name: podcast_downloaded, params: [podcast_title]}
          fpti: {name: download_podcast, params: {e: cl}}
      deletePodcast:
        properties: *podcast
        providers:
          firebase: {name: delete_podcast, params: [podcast_title]}
          amplitude: {name: Delete Podcast, params: [podcast_title]}
          piano: none
          braze: none
          fpti: {name: delete_podcast, params: {e: cl}}
      addPodcastToFavorite:
        properties: *podcast
        duplicateWithin: 500ms
        providers:
          firebase: {name: add_podcast_to_favorites, params: [podcast_title, podcast_duration]}
          amplitude: {name: Add Favorite, params: [podcast_title]}
          piano: {name: click.action, params: {click: add_favorite}}
          braze: {name: favorite_added, params: [podcast_title]}
          fpti: {name: add_podcast_to_favorite, params: {e: cl}}
      removePodcastFromFavorite:
        properties: *podcast
        providers:
          firebase: {name: remove_podcast_from_favorites, params: [podcast_title, podcast_duration]}
          amplitude: {name: Remove Favorite, params: [podcast_title]}
          piano: {name: click.action, params: {click: remove_favorite}}
          braze: {name: favorite_removed, params: [podcast_title]}
          fpti: {name: remove_podcast_from_favorite, params: {e: cl}}
      login:
        properties:
          method: {type: string, required: true, minLength: 1}
        providers:
          firebase: {name: login, params: [method]}
          amplitude: {name: Log In, params: [method]}
          piano: none
          braze: none
          fpti: {name: login, params: {e: cl}}
      logout:
        properties: {}
        providers:
          firebase: {name: logout}
          amplitude: {name: Log Out}
          piano: none
          braze: none
          fpti: {name: logout, params: {e: cl}}
      openPodcast:
        properties: *podcast
        providers:
          firebase: {name: select_content, params: {content_type: podcast, item_id: {type: string, pattern: "^p[0-9]+$"}}}
          amplitude: {name: Open Podcast, params: [podcast_title]}
          piano: {name: click.navigation, params: {click: open_podcast}}
          braze: none
          fpti: {name: open_podcast, params: {e: rd}}
    events:
      playerDidLoad:
        properties: *podcast
        providers: {firebase: none, amplitude: none, piano: none, braze: none, fpti: none}
      playerDidPlay:
        properties: *podcast
        providers: {firebase: none, amplitude: none, piano: none, braze: none, fpti: none}
      playerDidStop:
        properties:
          podcast_id: {type: string, required: true, pattern: "^p[0-9]+$"}
          podcast_title: {type: string, required: true, minLength: 1, maxLength: 100}
          podcast_duration: {type: integer, required: true, minimum: 0}
          position: {type: integer, required: true, minimum: 0}
        providers: {firebase: none, amplitude: none, piano: none, braze: none, fpti: none}
      playerDidFail:
        severity: warning
        properties:
          podcast_id: {type: string, required: true}
          podcast_title: {type: string, required: true}
          podcast_duration: {type: integer, minimum: 0}
          error: {type: string, required: true, minLength: 1}
        providers:
          firebase: {name: player_error, params: [podcast_title, error]}
          amplitude: {name: Player Error, params: [error]}
          piano: {name: player.error, params: [error]}
          braze: none
          fpti: {name: player_did_fail}
      notEnoughStorageSpaceForDownload:
        properties:
          podcast_id: {type: string, required: true}
          podcast_title: {type: string, required: true}
          podcast_duration: {type: integer, minimum: 0}
          required_bytes: {type: integer, required: true, minimum: 0}
          available_bytes: {type: integer, required: true, minimum: 0}
        providers:
          firebase: {name: download_failed_storage, params: [required_bytes, available_bytes]}
          amplitude: {name: Download Failed, params: {reason: not_enough_storage, required_bytes: {type: integer}}}
          piano: none
          braze: {name: download_failed, params: [required_bytes, available_bytes]}
          fpti: {name: not_enough_storage_space_for_download}
    states:
      autoPlay:
        properties: {value: {type: boolean, required: true}}
        providers:
          firebase: {method: setUserProperty, name: autoplay_enabled, params: {value: {enum: ["true", "false"]}}}
          amplitude: {method: identify, params: [autoplay]}
          piano: none
          braze: {method: setCustomAttribute, name: autoplay}
          fpti: none
      favorites:
        properties:
          count: {type: integer, required: true, minimum: 0}
          titles: {type: array}
        providers:
          firebase: {method: setUserProperty, name: favorites_count, params: [value]}
          amplitude: {method: identify, params: {favorites_count: {type: integer, minimum: 0}}}
          piano: none
          braze: {method: setCustomAttribute, name: favorites_count}
          fpti: none
      remoteNotificationAuthorized:
        properties: {value: {type: boolean, required: true}}
        providers:
          firebase: {method: setUserProperty, name: notifications_enabled, params: [value]}
          amplitude: {method: identify, params: [notifications]}
          piano: none
          braze: {method: setCustomAttribute, name: push_authorized}
          fpti: none
    timed:
      onboarding:
        properties: {}
        providers:
          firebase:
            - {when: {phase: start}, name: onboarding_start}
            - {when: {phase: stop}, name: onboarding_stop, params: {duration: {type: number, minimum: 0}}}
            - {when: {phase: cancel}, name: onboarding_cancel, params: [duration]}
          amplitude:
            - {when: {phase: start}, name: Onboarding Started}
            - {when: {phase: stop}, name: Onboarding Completed, params: [duration]}
            - {when: {phase: cancel}, name: Onboarding Cancelled, params: [duration]}
          piano: none
          braze:
            - {when: {phase: start}, name: onboarding_start}
            - {when: {phase: stop}, name: onboarding_stop, params: [duration]}
            - {when: {phase: cancel}, name: onboarding_cancel, params: [duration]}
          fpti: none
      listening:
        properties: *podcast
        providers:
          firebase:
            - {when: {phase: start}, name: listening_start, params: [podcast_title]}
            - {when: {phase: stop}, name: listening_stop, params: {podcast_title: null, duration: {type: number, minimum: 0}}}
            - {when: {phase: cancel}, name: listening_cancel, params: [duration]}
          amplitude:
            - {when: {phase: start}, name: Listening Started}
            - {when: {phase: stop}, name: Listening Completed, params: [duration]}
            - {when: {phase: cancel}, name: Listening Cancelled, params: [duration]}
          piano: none
          braze:
            - {when: {phase: start}, name: listening_start}
            - {when: {phase: stop}, name: listening_stop, params: [duration]}
            - {when: {phase: cancel}, name: listening_cancel, params: [duration]}
          fpti: none
    funnels:
      playback:
        description: the player loads a podcast, then plays it
        steps: [playerDidLoad, playerDidPlay]
    consent:
      categories:
        analytics: [firebase, amplitude, piano, fpti, segment, mixpanel]
        marketing: [braze]

    """

  /// ``yaml`` without its journey rules (`duplicateWithin`, `funnels`) and `consent`, and with
  /// `privacy: off`: the benchmark's comparison for what these checks cost.
  public static var yamlWithoutSessionChecks: String {
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    let end = lines.firstIndex(of: "funnels:") ?? lines.endIndex
    return lines[..<end].filter { !$0.hasSuffix("duplicateWithin: 500ms") }.joined(separator: "\n")
      + "\nprivacy: off\n"
  }

  /// The demo's deliberate journey bugs (the app's, not the mappings'), one sentence each: the
  /// opening tour shows both.
  public static let journeyBugs: [String] = [
    "duplicate: the tour's favourite button fires addPodcastToFavorite twice within 100 ms (plan: "
      + "duplicateWithin: 500ms)",
    "funnel-order: on the tour's first play the player reports playerDidPlay before playerDidLoad "
      + "(funnel playback)",
  ]
}
