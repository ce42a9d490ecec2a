Pod::Spec.new do |s|
  s.name    = 'FBSDKLoginKit'
  s.version = '18.0.0'
  s.dependency 'FBSDKCoreKit', "#{s.version}"
  s.dependency 'FBSDKCoreKit_Basics', s.version.to_s
  s.dependency 'FBAEMKit', '18.0.0'
end
