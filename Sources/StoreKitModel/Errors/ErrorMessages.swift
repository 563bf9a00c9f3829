extension SKErrorCode {
    /// The alert sentence and the developer explanation for this code.
    public func text(in language: Language) -> ErrorText {
        switch language {
        case .english: english
        case .simplifiedChinese: chinese
        }
    }

    private var english: ErrorText {
        switch self {
        case .unknown:
            ErrorText(
                message: "Something went wrong. Please try again later.",
                detail:
                    "SKErrorUnknown: the store returned an unknown or unexpected error. Retrying the request may help; if it persists, log the underlying error in the NSError userInfo."
            )
        case .clientInvalid:
            ErrorText(
                message: "This account can't make purchases.",
                detail:
                    "SKErrorClientInvalid: this client is not allowed to issue the request, typically because the signed-in Apple Account cannot buy. Check the account's status, and use a sandbox account in the sandbox environment."
            )
        case .paymentCancelled:
            // Apple's guidance is to show no alert; the message exists so the UI can decide.
            ErrorText(
                message: "Purchase cancelled.",
                detail:
                    "SKErrorPaymentCancelled: the user cancelled the payment sheet or the sign-in prompt. Do not show an error alert; reproduce it by tapping Cancel on the purchase confirmation."
            )
        case .paymentInvalid:
            ErrorText(
                message: "This purchase is invalid.",
                detail:
                    "SKErrorPaymentInvalid: a payment parameter was not recognised by the store, most often the product identifier. Check that the identifier matches App Store Connect or the catalog exactly, including case."
            )
        case .paymentNotAllowed:
            ErrorText(
                message: "Purchases aren't allowed on this device.",
                detail:
                    "SKErrorPaymentNotAllowed: this user or device may not authorise payments, usually because of Screen Time or parental restrictions on In-App Purchases. Call SKPaymentQueue.canMakePayments() before offering a purchase."
            )
        case .storeProductNotAvailable:
            ErrorText(
                message: "This item isn't available in your country or region.",
                detail:
                    "SKErrorStoreProductNotAvailable: the product is not cleared for sale in the current storefront. Check the product's availability and pricing territories in App Store Connect, and which storefront the account uses."
            )
        case .cloudServicePermissionDenied:
            ErrorText(
                message: "Access to Apple Music was not allowed.",
                detail:
                    "SKErrorCloudServicePermissionDenied: the user has not allowed the app to access cloud service information. Request authorisation with SKCloudServiceController.requestAuthorization(_:) and check the media library usage description in Info.plist."
            )
        case .cloudServiceNetworkConnectionFailed:
            ErrorText(
                message: "Couldn't reach Apple Music. Check your connection.",
                detail:
                    "SKErrorCloudServiceNetworkConnectionFailed: the device could not connect to the network while querying cloud service capabilities. Retry the SKCloudServiceController request once the network is back."
            )
        case .cloudServiceRevoked:
            ErrorText(
                message: "Access to Apple Music has been turned off.",
                detail:
                    "SKErrorCloudServiceRevoked: the user revoked the app's permission to use this cloud service. Check SKCloudServiceController.authorizationStatus() and direct the user to Settings to grant access again."
            )
        case .privacyAcknowledgementRequired:
            ErrorText(
                message: "Please review and accept the privacy policy.",
                detail:
                    "SKErrorPrivacyAcknowledgementRequired: the user has not yet acknowledged Apple's privacy policy for Apple Music. Have the user open the Music app once and accept the policy, then retry."
            )
        case .unauthorizedRequestData:
            ErrorText(
                message: "This request isn't authorized.",
                detail:
                    "SKErrorUnauthorizedRequestData: the app set SKMutablePayment.requestData without the entitlement that allows it. Leave requestData nil unless Apple has granted that entitlement."
            )
        case .invalidOfferIdentifier:
            ErrorText(
                message: "This offer isn't valid.",
                detail:
                    "SKErrorInvalidOfferIdentifier: the subscription offer identifier in SKPaymentDiscount is not set up for this product, or the offer was revoked. Check the offer identifier against the subscription's promotional offers in App Store Connect."
            )
        case .invalidSignature:
            ErrorText(
                message: "This offer couldn't be verified.",
                detail:
                    "SKErrorInvalidSignature: the promotional offer signature in SKPaymentDiscount does not verify. Check that the server signs with the private key matching the key identifier, over the same bundle id, product, offer, username, nonce (lowercase UUID) and millisecond timestamp that the payment sends."
            )
        case .missingOfferParams:
            ErrorText(
                message: "This offer is missing information.",
                detail:
                    "SKErrorMissingOfferParams: one or more SKPaymentDiscount parameters are missing. Check that identifier, keyIdentifier, nonce, signature and timestamp are all set, along with applicationUsername on the payment."
            )
        case .invalidOfferPrice:
            ErrorText(
                message: "This offer's price is no longer valid.",
                detail:
                    "SKErrorInvalidOfferPrice: the offer price is no longer valid, for example after the base price changed so the offer is no longer a discount. Check the offer's price against the subscription price in each storefront in App Store Connect."
            )
        case .overlayCancelled:
            ErrorText(
                message: "The App Store window was closed.",
                detail:
                    "SKErrorOverlayCancelled: the SKOverlay was cancelled before it finished. Reproduce it by dismissing the overlay; the delegate's storeOverlayDidFailToLoad(_:error:) receives it."
            )
        case .overlayInvalidConfiguration:
            ErrorText(
                message: "The App Store window couldn't be shown.",
                detail:
                    "SKErrorOverlayInvalidConfiguration: the SKOverlay configuration is invalid. Check the appIdentifier and campaign fields of SKOverlay.AppConfiguration or the App Clip configuration."
            )
        case .overlayTimeout:
            ErrorText(
                message: "The App Store window took too long to load.",
                detail:
                    "SKErrorOverlayTimeout: the SKOverlay did not load in time, usually on a slow network. Retry presenting the overlay later."
            )
        case .ineligibleForOffer:
            ErrorText(
                message: "You're not eligible for this offer.",
                detail:
                    "SKErrorIneligibleForOffer: the user does not meet the offer's eligibility rules, for example an introductory offer already redeemed in the subscription group. Check eligibility before showing the offer."
            )
        case .unsupportedPlatform:
            ErrorText(
                message: "This feature isn't supported on this device.",
                detail:
                    "SKErrorUnsupportedPlatform: the current platform does not support app store overlays. Check the platform before presenting SKOverlay and fall back to SKStoreProductViewController or a link."
            )
        case .overlayPresentedInBackgroundScene:
            ErrorText(
                message: "The App Store window can't open in the background.",
                detail:
                    "SKErrorOverlayPresentedInBackgroundScene: the overlay was presented from a UIWindowScene that is not in the foreground. Present SKOverlay only in a scene whose activationState is foregroundActive."
            )
        case .paymentMethodBindingConfigurationRequired:
            ErrorText(
                message: "Add a payment method to your account to continue.",
                detail:
                    "SKErrorPaymentMethodBindingConfigurationRequired: the customer must add a payment method to the account before buying (newest SDKs only). Reproduce it with an account that has no payment method; the user fixes it in account settings."
            )
        }
    }

    private var chinese: ErrorText {
        switch self {
        case .unknown:
            ErrorText(
                message: "未知错误，请稍后重试",
                detail: "SKErrorUnknown：商店返回了未知或意外的错误。重试请求可能有效；若持续出现，请记录 NSError 的 userInfo 中的底层错误。"
            )
        case .clientInvalid:
            ErrorText(
                message: "当前账号无法购买",
                detail: "SKErrorClientInvalid：此客户端无权发起该请求，通常是当前登录的 Apple 账户无法购买。请检查账户状态，并在沙盒环境中使用沙盒测试账户。"
            )
        case .paymentCancelled:
            ErrorText(
                message: "订单已取消",
                detail: "SKErrorPaymentCancelled：用户取消了付款界面或登录提示。不要弹出错误提示；在购买确认界面点击“取消”即可复现。"
            )
        case .paymentInvalid:
            ErrorText(
                message: "订单无效",
                detail: "SKErrorPaymentInvalid：商店无法识别某个付款参数，最常见的是商品标识符。请检查标识符是否与 App Store Connect 或商品目录完全一致，包括大小写。"
            )
        case .paymentNotAllowed:
            ErrorText(
                message: "当前设备无法购买",
                detail:
                    "SKErrorPaymentNotAllowed：此用户或设备不允许授权付款，通常是屏幕使用时间或家长控制限制了 App 内购买。发起购买前请先调用 SKPaymentQueue.canMakePayments()。"
            )
        case .storeProductNotAvailable:
            ErrorText(
                message: "商品不可用",
                detail: "SKErrorStoreProductNotAvailable：该商品未在当前店面上架销售。请在 App Store Connect 中检查商品的供应情况和销售地区，并确认账户所在的店面。"
            )
        case .cloudServicePermissionDenied:
            ErrorText(
                message: "未获得访问 Apple Music 的权限",
                detail:
                    "SKErrorCloudServicePermissionDenied：用户未允许应用访问云服务信息。请通过 SKCloudServiceController.requestAuthorization(_:) 请求授权，并检查 Info.plist 中的媒体资料库用途说明。"
            )
        case .cloudServiceNetworkConnectionFailed:
            ErrorText(
                message: "无法连接 Apple Music，请检查网络",
                detail:
                    "SKErrorCloudServiceNetworkConnectionFailed：查询云服务能力时设备无法连接网络。请在网络恢复后重试 SKCloudServiceController 的请求。"
            )
        case .cloudServiceRevoked:
            ErrorText(
                message: "Apple Music 访问权限已关闭",
                detail:
                    "SKErrorCloudServiceRevoked：用户撤销了应用使用该云服务的权限。请检查 SKCloudServiceController.authorizationStatus()，并引导用户前往“设置”重新授权。"
            )
        case .privacyAcknowledgementRequired:
            ErrorText(
                message: "请先阅读并同意隐私政策",
                detail: "SKErrorPrivacyAcknowledgementRequired：用户尚未确认 Apple Music 的隐私政策。请让用户先打开一次“音乐”应用并同意该政策，然后重试。"
            )
        case .unauthorizedRequestData:
            ErrorText(
                message: "请求未获授权",
                detail:
                    "SKErrorUnauthorizedRequestData：应用在没有相应权限的情况下设置了 SKMutablePayment.requestData。除非 Apple 授予了该权限，否则请让 requestData 保持为 nil。"
            )
        case .invalidOfferIdentifier:
            ErrorText(
                message: "优惠无效",
                detail:
                    "SKErrorInvalidOfferIdentifier：SKPaymentDiscount 中的订阅优惠标识符未为该商品配置，或该优惠已被撤销。请对照 App Store Connect 中该订阅的促销优惠检查优惠标识符。"
            )
        case .invalidSignature:
            ErrorText(
                message: "优惠验证失败",
                detail:
                    "SKErrorInvalidSignature：SKPaymentDiscount 中的促销优惠签名校验失败。请检查服务器是否使用与密钥标识符对应的私钥签名，且签名内容中的套装 ID、商品、优惠、用户名、随机数（小写 UUID）和毫秒时间戳与付款中发送的一致。"
            )
        case .missingOfferParams:
            ErrorText(
                message: "优惠信息不完整",
                detail:
                    "SKErrorMissingOfferParams：缺少一个或多个 SKPaymentDiscount 参数。请检查 identifier、keyIdentifier、nonce、signature 和 timestamp 是否都已设置，以及付款中的 applicationUsername。"
            )
        case .invalidOfferPrice:
            ErrorText(
                message: "优惠价格已失效",
                detail: "SKErrorInvalidOfferPrice：优惠价格已不再有效，例如基础价格调整后该优惠不再是折扣。请在 App Store Connect 中逐个店面对照订阅价格检查优惠价格。"
            )
        case .overlayCancelled:
            ErrorText(
                message: "App Store 窗口已关闭",
                detail:
                    "SKErrorOverlayCancelled：SKOverlay 在完成前被取消。关闭浮层即可复现；代理方法 storeOverlayDidFailToLoad(_:error:) 会收到该错误。"
            )
        case .overlayInvalidConfiguration:
            ErrorText(
                message: "App Store 窗口无法显示",
                detail:
                    "SKErrorOverlayInvalidConfiguration：SKOverlay 的配置无效。请检查 SKOverlay.AppConfiguration 或轻 App 配置中的 appIdentifier 和推广活动字段。"
            )
        case .overlayTimeout:
            ErrorText(
                message: "App Store 窗口加载超时",
                detail: "SKErrorOverlayTimeout：SKOverlay 未能及时加载，通常是网络较慢所致。请稍后重新展示浮层。"
            )
        case .ineligibleForOffer:
            ErrorText(
                message: "当前账号不符合优惠条件",
                detail: "SKErrorIneligibleForOffer：用户不满足该优惠的资格规则，例如已在该订阅群组中享受过推介促销优惠。展示优惠前请先检查资格。"
            )
        case .unsupportedPlatform:
            ErrorText(
                message: "当前平台不支持此功能",
                detail:
                    "SKErrorUnsupportedPlatform：当前平台不支持 App Store 浮层。展示 SKOverlay 前请先检查平台，并改用 SKStoreProductViewController 或链接作为替代。"
            )
        case .overlayPresentedInBackgroundScene:
            ErrorText(
                message: "App Store 窗口无法在后台打开",
                detail:
                    "SKErrorOverlayPresentedInBackgroundScene：浮层是从不在前台的 UIWindowScene 中展示的。只应在 activationState 为 foregroundActive 的场景中展示 SKOverlay。"
            )
        case .paymentMethodBindingConfigurationRequired:
            ErrorText(
                message: "请先为账号添加付款方式",
                detail:
                    "SKErrorPaymentMethodBindingConfigurationRequired：顾客必须先为账户添加付款方式才能购买（仅限最新 SDK）。使用没有付款方式的账户即可复现；用户需在账户设置中添加付款方式。"
            )
        }
    }
}

extension URLErrorCode {
    /// The alert sentence and the developer explanation for this network failure.
    public func text(in language: Language) -> ErrorText {
        switch language {
        case .english: english
        case .simplifiedChinese: chinese
        }
    }

    private var english: ErrorText {
        switch self {
        case .timedOut:
            ErrorText(
                message: "The request timed out. Please try again.",
                detail:
                    "NSURLErrorTimedOut (-1001) in NSURLErrorDomain: the App Store server did not answer within the request timeout. StoreKit and URLSession report it as a URL error, not SKError; retry the product request or receipt validation with backoff."
            )
        case .cannotFindHost:
            ErrorText(
                message: "The server couldn't be found.",
                detail:
                    "NSURLErrorCannotFindHost (-1003) in NSURLErrorDomain: DNS could not resolve the store's host name. Check the network's DNS, VPN or captive portal, then retry the request."
            )
        case .cannotConnectToHost:
            ErrorText(
                message: "Couldn't connect to the server.",
                detail:
                    "NSURLErrorCannotConnectToHost (-1004) in NSURLErrorDomain: the host resolved but refused or did not accept the connection. Check firewalls, proxies and the server's status, then retry."
            )
        case .networkConnectionLost:
            ErrorText(
                message: "The network connection was lost.",
                detail:
                    "NSURLErrorNetworkConnectionLost (-1005) in NSURLErrorDomain: the connection dropped mid-request, for example when switching between Wi-Fi and cellular. Retry the request; a purchase already in the payment queue completes through the transaction observer."
            )
        case .notConnectedToInternet:
            ErrorText(
                message: "You're not connected to the internet.",
                detail:
                    "NSURLErrorNotConnectedToInternet (-1009) in NSURLErrorDomain: the device has no network route, e.g. Airplane Mode or Wi-Fi off. Reproduce it with the Network Link Conditioner 100% Loss profile and retry once connectivity returns."
            )
        case .userCancelledAuthentication:
            ErrorText(
                message: "Sign-in was cancelled.",
                detail:
                    "NSURLErrorUserCancelledAuthentication (-1012) in NSURLErrorDomain: the user dismissed an authentication challenge, such as the Apple Account password prompt. Treat it like a cancellation and do not retry automatically."
            )
        case .secureConnectionFailed:
            ErrorText(
                message: "A secure connection couldn't be made.",
                detail:
                    "NSURLErrorSecureConnectionFailed (-1200) in NSURLErrorDomain: the TLS handshake failed, often because of a wrong device clock, an intercepting proxy or an App Transport Security mismatch. Check the date and the proxy before retrying."
            )
        }
    }

    private var chinese: ErrorText {
        switch self {
        case .timedOut:
            ErrorText(
                message: "请求超时，请稍后重试",
                detail:
                    "NSURLErrorDomain 中的 NSURLErrorTimedOut（-1001）：App Store 服务器未在请求超时时间内响应。StoreKit 和 URLSession 会将其作为 URL 错误而非 SKError 报告；请以退避方式重试商品请求或收据验证。"
            )
        case .cannotFindHost:
            ErrorText(
                message: "找不到服务器",
                detail:
                    "NSURLErrorDomain 中的 NSURLErrorCannotFindHost（-1003）：DNS 无法解析商店的主机名。请检查网络的 DNS、VPN 或强制门户，然后重试请求。"
            )
        case .cannotConnectToHost:
            ErrorText(
                message: "无法连接服务器",
                detail:
                    "NSURLErrorDomain 中的 NSURLErrorCannotConnectToHost（-1004）：主机名已解析，但主机拒绝或未接受连接。请检查防火墙、代理和服务器状态，然后重试。"
            )
        case .networkConnectionLost:
            ErrorText(
                message: "网络连接已中断",
                detail:
                    "NSURLErrorDomain 中的 NSURLErrorNetworkConnectionLost（-1005）：请求过程中连接中断，例如在无线局域网和蜂窝网络之间切换时。请重试请求；已进入付款队列的购买会通过交易观察者完成。"
            )
        case .notConnectedToInternet:
            ErrorText(
                message: "设备未连接到互联网",
                detail:
                    "NSURLErrorDomain 中的 NSURLErrorNotConnectedToInternet（-1009）：设备没有可用的网络，例如开启了飞行模式或关闭了无线局域网。可用网络链接调节器的 100% Loss 配置复现，并在网络恢复后重试。"
            )
        case .userCancelledAuthentication:
            ErrorText(
                message: "登录已取消",
                detail:
                    "NSURLErrorDomain 中的 NSURLErrorUserCancelledAuthentication（-1012）：用户关闭了身份验证提示，例如 Apple 账户密码输入框。请将其视为取消操作，不要自动重试。"
            )
        case .secureConnectionFailed:
            ErrorText(
                message: "无法建立安全连接",
                detail:
                    "NSURLErrorDomain 中的 NSURLErrorSecureConnectionFailed（-1200）：TLS 握手失败，常见原因是设备时间错误、代理拦截或 App 传输安全设置不匹配。重试前请检查日期和代理设置。"
            )
        }
    }
}
